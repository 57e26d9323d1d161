/*
 * test_routine_table.c - every routine of the routine table (routines.h) in every precision,
 * s, d, c and z, called from C through the glblas API, once on host operands and once on
 * device operands, each call compared with the same call on the reference BLAS
 * (every_routine.h: sizes, increments, flags and operations drawn at random, and small
 * integers, so that every element of every operand must be exact). A precision the device does
 * not compute must answer NOT_SUPPORTED with its operands untouched.
 */
#include "check.h"
#include "every_routine.h"

int main(void)
{
    rng_t rng = rng_seed(34);
    some_routines(&rng, 0, NULL, NULL, ROUTINE_COUNT, "sdcz");
    some_routines(&rng, 1, NULL, NULL, ROUTINE_COUNT, "sdcz");
    return check_finish("test_routine_table");
}
