#ifndef SLIPPERS_TEST_PARALLELISM_H
#define SLIPPERS_TEST_PARALLELISM_H

/// How many tests run at once per processor core, unless the environment says otherwise.
static const long slippers_tests_per_core = 6;

#endif
