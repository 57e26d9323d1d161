/*
 * test_memory.c - glblasMalloc / glblasFree / glblasMemcpy / glblasSync on
 * valid arguments (the INVALID_VALUE cases are in test_bad_args.c).
 * - glblasMalloc of 0 bytes: SUCCESS and *devPtr = NULL; glblasFree(NULL):
 *   SUCCESS;
 * - allocations of odd sizes are distinct and do not overlap;
 * - round trips HostToDevice / DeviceToHost / DeviceToDevice and Infer in
 *   every direction are byte-exact;
 * - copies at odd byte offsets inside an allocation (interior pointers),
 *   partial copies leave the other bytes alone, a copy ending exactly at the
 *   end of an allocation works;
 * - DeviceToDevice within one allocation (disjoint ranges);
 * - bytes == 0: SUCCESS for every kind;
 * - many allocations and frees.
 */
#include "check.h"

static void fill_bytes(unsigned char *p, size_t n, unsigned seed)
{
    size_t i;
    for (i = 0; i < n; ++i)
        p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xFFu);
}

static int bytes_equal(const char *label, const unsigned char *got, const unsigned char *want, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        if (got[i] != want[i]) {
            FAIL("%s: byte %lu expected 0x%02x, got 0x%02x", label, (unsigned long)i, want[i], got[i]);
            return 1;
        }
    }
    return 0;
}

static void round_trips(void)
{
    static const size_t sizes[] = { 1, 3, 4, 17, 4096, 65539, (1u << 20) + 5 };
    size_t s;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        size_t n = sizes[s];
        unsigned char *src = (unsigned char *)xmalloc(n), *dst = (unsigned char *)xmalloc(n);
        void *d1 = NULL, *d2 = NULL;
        char label[100];

        fill_bytes(src, n, (unsigned)s);
        if (!CHECK_OK(glblasMalloc(&d1, n)) || !CHECK_OK(glblasMalloc(&d2, n)) || !d1 || !d2)
            FATAL("glblasMalloc(%lu) failed", (unsigned long)n);

        snprintf(label, sizeof label, "H2D/D2H round trip of %lu bytes", (unsigned long)n);
        CHECK_OK(glblasMemcpy(d1, src, n, glblasMemcpyHostToDevice));
        memset(dst, 0xA5, n);
        CHECK_OK(glblasMemcpy(dst, d1, n, glblasMemcpyDeviceToHost));
        bytes_equal(label, dst, src, n);

        snprintf(label, sizeof label, "D2D copy of %lu bytes", (unsigned long)n);
        CHECK_OK(glblasMemcpy(d2, d1, n, glblasMemcpyDeviceToDevice));
        memset(dst, 0x5A, n);
        CHECK_OK(glblasMemcpy(dst, d2, n, glblasMemcpyDeviceToHost));
        bytes_equal(label, dst, src, n);

        /* Infer, every direction */
        fill_bytes(src, n, (unsigned)s + 100);
        snprintf(label, sizeof label, "Infer round trip of %lu bytes", (unsigned long)n);
        CHECK_OK(glblasMemcpy(d1, src, n, glblasMemcpyInfer));
        CHECK_OK(glblasMemcpy(d2, d1, n, glblasMemcpyInfer));
        memset(dst, 0, n);
        CHECK_OK(glblasMemcpy(dst, d2, n, glblasMemcpyInfer));
        bytes_equal(label, dst, src, n);

        CHECK_OK(glblasFree(d1));
        CHECK_OK(glblasFree(d2));
        free(src);
        free(dst);
    }
}

static void offsets(void)
{
    enum { N = 1000 };
    unsigned char base[N], patch[64], got[N], want[N];
    unsigned char *d = NULL, *d2 = NULL;
    void *p = NULL;

    fill_bytes(base, N, 1);
    fill_bytes(patch, sizeof patch, 2);
    if (!CHECK_OK(glblasMalloc(&p, N)) || !p)
        FATAL("glblasMalloc failed");
    d = (unsigned char *)p;
    CHECK_OK(glblasMemcpy(d, base, N, glblasMemcpyHostToDevice));

    /* 5 bytes at byte offset 3 */
    memcpy(want, base, N);
    memcpy(want + 3, patch, 5);
    CHECK_OK(glblasMemcpy(d + 3, patch, 5, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(got, d, N, glblasMemcpyDeviceToHost));
    bytes_equal("5 bytes written at device offset 3", got, want, N);

    /* 1 byte at offset 0, odd-length write ending exactly at the end */
    want[0] = patch[10];
    CHECK_OK(glblasMemcpy(d, patch + 10, 1, glblasMemcpyInfer));
    memcpy(want + N - 13, patch + 20, 13);
    CHECK_OK(glblasMemcpy(d + N - 13, patch + 20, 13, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(got, d, N, glblasMemcpyDeviceToHost));
    bytes_equal("writes at offset 0 and ending at the end of the allocation", got, want, N);

    /* reads at odd offsets, including the last byte */
    memset(got, 0, N);
    CHECK_OK(glblasMemcpy(got, d + 501, 7, glblasMemcpyDeviceToHost));
    bytes_equal("7 bytes read at device offset 501", got, want + 501, 7);
    CHECK_OK(glblasMemcpy(got, d + N - 1, 1, glblasMemcpyInfer));
    bytes_equal("last byte read", got, want + N - 1, 1);

    /* D2D within one allocation, disjoint ranges, odd offsets */
    memcpy(want + 700, want + 11, 101);
    CHECK_OK(glblasMemcpy(d + 700, d + 11, 101, glblasMemcpyDeviceToDevice));
    CHECK_OK(glblasMemcpy(got, d, N, glblasMemcpyDeviceToHost));
    bytes_equal("D2D within one allocation", got, want, N);

    /* D2D between allocations at interior offsets */
    if (!CHECK_OK(glblasMalloc(&p, 257)) || !p)
        FATAL("glblasMalloc failed");
    d2 = (unsigned char *)p;
    CHECK_OK(glblasMemcpy(d2, base, 257, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(d2 + 1, d + 999 - 255, 255, glblasMemcpyInfer));
    CHECK_OK(glblasMemcpy(got, d2, 257, glblasMemcpyDeviceToHost));
    {
        unsigned char w2[257];
        memcpy(w2, base, 257);
        memcpy(w2 + 1, want + 999 - 255, 255);
        bytes_equal("D2D between allocations at interior offsets", got, w2, 257);
    }

    /* bytes == 0 with every kind and valid pointers */
    memcpy(got, want, N);
    CHECK_OK(glblasMemcpy(d, got, 0, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(got, d, 0, glblasMemcpyDeviceToHost));
    CHECK_OK(glblasMemcpy(d2, d, 0, glblasMemcpyDeviceToDevice));
    CHECK_OK(glblasMemcpy(d + 5, got, 0, glblasMemcpyInfer));
    CHECK_OK(glblasMemcpy(got, d2 + 3, 0, glblasMemcpyInfer));
    CHECK_OK(glblasMemcpy(got, d, N, glblasMemcpyDeviceToHost));
    bytes_equal("after zero-byte copies", got, want, N);

    CHECK_OK(glblasFree(d));
    CHECK_OK(glblasFree(d2));
}

static void alloc_free(void)
{
    enum { K = 200 };
    void *ptrs[K];
    size_t sizes[K];
    void *p = (void *)&p;
    int i, j;

    CHECK_OK(glblasMalloc(&p, 0));
    CHECK(p == NULL, "glblasMalloc(&p, 0): *devPtr expected NULL, got %p", p);
    CHECK_OK(glblasFree(NULL));

    for (i = 0; i < K; ++i) {
        sizes[i] = (size_t)(1 + (i * 37) % 513);
        ptrs[i] = NULL;
        if (!CHECK_OK(glblasMalloc(&ptrs[i], sizes[i])) || ptrs[i] == NULL)
            FATAL("glblasMalloc #%d of %lu bytes failed", i, (unsigned long)sizes[i]);
    }
    /* distinct, non-overlapping */
    for (i = 0; i < K; ++i)
        for (j = i + 1; j < K; ++j) {
            uintptr_t a = (uintptr_t)ptrs[i], b = (uintptr_t)ptrs[j];
            CHECK(a + sizes[i] <= b || b + sizes[j] <= a, "allocations %d [%p,+%lu) and %d [%p,+%lu) overlap", i,
                  ptrs[i], (unsigned long)sizes[i], j, ptrs[j], (unsigned long)sizes[j]);
        }
    /* each keeps its own content */
    for (i = 0; i < K; ++i) {
        unsigned char b[513];
        fill_bytes(b, sizes[i], (unsigned)i);
        CHECK_OK(glblasMemcpy(ptrs[i], b, sizes[i], glblasMemcpyHostToDevice));
    }
    for (i = 0; i < K; ++i) {
        unsigned char b[513], want[513];
        char label[60];
        fill_bytes(want, sizes[i], (unsigned)i);
        CHECK_OK(glblasMemcpy(b, ptrs[i], sizes[i], glblasMemcpyDeviceToHost));
        snprintf(label, sizeof label, "allocation #%d content", i);
        bytes_equal(label, b, want, sizes[i]);
    }
    for (i = 0; i < K; i += 2)
        CHECK_OK(glblasFree(ptrs[i]));
    for (i = 1; i < K; i += 2)
        CHECK_OK(glblasFree(ptrs[i]));
}

int main(void)
{
    CHECK_OK(glblasInit());
    alloc_free();
    round_trips();
    offsets();
    CHECK_OK(glblasSync());
    return check_finish("test_memory");
}
