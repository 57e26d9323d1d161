/*
 * test_init_status.c - glblasGetStatusString, glblasInit, glblasGetDeviceName,
 * glblasSync.
 * - glblasGetStatusString: non-NULL, non-empty, distinct text for every
 *   status (before any initialisation), and non-NULL text for unknown values;
 * - glblasInit: SUCCESS, idempotent;
 * - glblasGetDeviceName: non-NULL, non-empty after init, stable;
 * - glblasSync: SUCCESS (also with nothing pending).
 */
#include <limits.h>

#include "check.h"

int main(void)
{
    static const glblasStatus_t all[] = {
        GLBLAS_STATUS_SUCCESS,        GLBLAS_STATUS_NOT_INITIALIZED,  GLBLAS_STATUS_ALLOC_FAILED,
        GLBLAS_STATUS_INVALID_VALUE,  GLBLAS_STATUS_NOT_SUPPORTED,    GLBLAS_STATUS_EXECUTION_FAILED,
        GLBLAS_STATUS_DIMENSION_OVERFLOW,
    };
    static const int unknown[] = { 7, 8, 99, -1, INT_MAX, INT_MIN };
    const char *texts[sizeof all / sizeof all[0]];
    const char *name, *name2;
    size_t i, j;

    /* values of the enum are part of the ABI */
    CHECK(GLBLAS_STATUS_SUCCESS == 0 && GLBLAS_STATUS_NOT_INITIALIZED == 1 && GLBLAS_STATUS_ALLOC_FAILED == 2 &&
              GLBLAS_STATUS_INVALID_VALUE == 3 && GLBLAS_STATUS_NOT_SUPPORTED == 4 &&
              GLBLAS_STATUS_EXECUTION_FAILED == 5 && GLBLAS_STATUS_DIMENSION_OVERFLOW == 6,
          "glblasStatus_t values differ from the spec");
    CHECK(GLBLAS_OP_N == 0 && GLBLAS_OP_T == 1 && GLBLAS_OP_C == 2, "glblasOperation_t values differ from the spec");
    CHECK(glblasMemcpyInfer == 0 && glblasMemcpyHostToDevice == 1 && glblasMemcpyDeviceToHost == 2 &&
              glblasMemcpyDeviceToDevice == 3,
          "glblasMemcpyKind_t values differ from the spec");

    /* status strings, before any initialisation */
    for (i = 0; i < sizeof all / sizeof all[0]; ++i) {
        texts[i] = glblasGetStatusString(all[i]);
        if (texts[i] == NULL) {
            FAIL("glblasGetStatusString(%s) returned NULL", status_name(all[i]));
            continue;
        }
        CHECK(texts[i][0] != '\0', "glblasGetStatusString(%s) returned an empty string", status_name(all[i]));
        printf("  %d: %s\n", (int)all[i], texts[i]);
    }
    for (i = 0; i < sizeof all / sizeof all[0]; ++i)
        for (j = i + 1; j < sizeof all / sizeof all[0]; ++j)
            if (texts[i] && texts[j])
                CHECK(strcmp(texts[i], texts[j]) != 0, "glblasGetStatusString gives the same text for %s and %s",
                      status_name(all[i]), status_name(all[j]));
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
        const char *t = glblasGetStatusString((glblasStatus_t)unknown[i]);
        CHECK(t != NULL, "glblasGetStatusString(%d) (unknown value) returned NULL", unknown[i]);
        if (t)
            printf("  %d: %s\n", unknown[i], t);
    }
    /* the same status gives the same (static) text again */
    CHECK(glblasGetStatusString(GLBLAS_STATUS_INVALID_VALUE) != NULL && texts[3] != NULL &&
              strcmp(glblasGetStatusString(GLBLAS_STATUS_INVALID_VALUE), texts[3]) == 0,
          "glblasGetStatusString(INVALID_VALUE) not stable");

    /* init, idempotent */
    CHECK_OK(glblasInit());
    CHECK_OK(glblasInit());

    name = glblasGetDeviceName();
    CHECK(name != NULL, "glblasGetDeviceName() after glblasInit returned NULL");
    if (name) {
        CHECK(name[0] != '\0', "glblasGetDeviceName() returned an empty string");
        printf("  device: %s\n", name);
    }
    CHECK_OK(glblasInit());
    name2 = glblasGetDeviceName();
    CHECK(name2 != NULL && name != NULL && strcmp(name, name2) == 0,
          "glblasGetDeviceName() changed after a second glblasInit: '%s' vs '%s'", name ? name : "(null)",
          name2 ? name2 : "(null)");

    CHECK_OK(glblasSync());
    CHECK_OK(glblasSync());
    return check_finish("test_init_status");
}
