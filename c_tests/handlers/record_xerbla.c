/*
 * record_xerbla.c - error handlers that record each report instead of printing it, for the
 * Rust tests of the error reports (tests/common/xerbla.rs). A test builds this file as a shared
 * object and loads it RTLD_GLOBAL, so glblas's call-time lookup (dlsym(RTLD_DEFAULT, ...))
 * finds these definitions; the object defines no BLAS routine, so glblas takes them for the
 * program's own handlers.
 */
#include <stddef.h>
#include <string.h>

int fuzz_reports;        /* handler calls so far */
int fuzz_info;           /* the last report's parameter number */
int fuzz_fortran;        /* 1 when the last report came through xerbla_, 0 for cblas_xerbla */
char fuzz_routine[64];   /* its routine name: "SGEMM " as Fortran passes it, or "cblas_sgemm" */

static void record(const char *name, size_t len, int info, int fortran) {
    if (len >= sizeof fuzz_routine)
        len = sizeof fuzz_routine - 1;
    memcpy(fuzz_routine, name, len);
    fuzz_routine[len] = '\0';
    fuzz_info = info;
    fuzz_fortran = fortran;
    fuzz_reports++;
}

void xerbla_(const char *srname, const int *info, size_t len) {
    record(srname, len, *info, 1);
}

void cblas_xerbla(int info, const char *rout, const char *form, ...) {
    (void)form;
    record(rout, strlen(rout), info, 0);
}
