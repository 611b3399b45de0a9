// Bounds how many tests Swift Testing runs at once, before it reads its configuration.
//
// Swift Testing starts every test of the run together by default. Here that is over a hundred
// tests at once that each start a fixture server in the test process and a `slippers` child
// process: on a 2-core machine, an hour when the machine is slow starves the in-process servers
// past the clients' request timeouts, and dozens of tests fail for no fault of the code. Six
// tests per core keep both cores busy (the whole suite runs about as fast) and no test waits for
// a server that cannot be scheduled.
//
// A value the caller set in the environment wins: SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH
// is Swift Testing's own setting (experimental in Swift 6.3; a toolchain that ignores it runs
// the tests as before).

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "TestParallelism.h"

__attribute__((constructor)) static void slippers_bound_test_parallelism(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) {
        cores = 1;
    }
    char width[32];
    snprintf(width, sizeof width, "%ld", cores * slippers_tests_per_core);
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
}
