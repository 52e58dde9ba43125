/* weighted_native.c with allocation failures injected (test_weighted_native.py compiles and runs it, under
 * AddressSanitizer and UBSan where the compiler has them).
 *
 * For random graphs with blossoms, every calloc and realloc the run makes fails in turn, once (the rest
 * succeed) and from then on (every later one fails too). Each run must stop with NULL or -1, or give the
 * matching of the run without failures; never hold more blossoms than a laminar family of odd sets allows
 * ((size - 1) / 2) plus the one being made when memory ran out; and wm_free must release all of it (the
 * sanitizer's leak check); and sizes too big to double in an int64 are refused. Prints
 * "runs R stopped S failed-blossoms B" and exits 0, or names the fault. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long calls, fail_from = -1, failures;
static int persistent;

static int fails(void) {
    long at = calls++;
    if (fail_from < 0 || at < fail_from || (!persistent && at > fail_from)) return 0;
    failures++;
    return 1;
}
static void *test_calloc(size_t count, size_t each) { return fails() ? NULL : calloc(count, each); }
static void *test_realloc(void *p, size_t bytes) { return fails() ? NULL : realloc(p, bytes); }
#define calloc test_calloc
#define realloc test_realloc
#include "weighted_native.c"
#undef calloc
#undef realloc

static uint64_t state = 88172645463325252ULL;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0); /* the sanitizer's leak report ends the process without flushing */
    int graphs = argc > 1 ? atoi(argv[1]) : 300;
    long runs = 0, stopped = 0, blossom_failures = 0;
    /* sizes whose doubling would overflow int64 (undefined behaviour, which UBSan stops at) are refused */
    int64_t pair[2] = {0, 1}, one = 1;
    if (wm_new(INT64_MAX / 2 + 1, 1, pair, &one) != NULL || wm_new(INT64_MAX / 4 + 1, 1, pair, &one) != NULL
        || wm_new(3, INT64_MAX / 2 + 1, pair, &one) != NULL) {
        printf("a size past INT64_MAX / 4 was accepted\n");
        return 1;
    }
    for (int g = 0; g < graphs; g++) {
        int64_t size = 4 + (int64_t)(next() % 40), edges = 0;
        int64_t *ends = malloc(sizeof(int64_t) * 2 * size * size), *weights = malloc(sizeof(int64_t) * size * size);
        int64_t *mate0 = malloc(sizeof(int64_t) * size), *mate = malloc(sizeof(int64_t) * size);
        int64_t top = 1 + (int64_t)(next() % 4), density = 1 + (int64_t)(next() % 4);
        for (int64_t u = 0; u < size; u++)
            for (int64_t v = u + 1; v < size; v++) {
                int heavy = v - u <= 2 && u % 3 == 0; /* heavy triangles over a light background: blossoms */
                if (!heavy && next() % (uint64_t)density) continue;
                ends[2 * edges] = u;
                ends[2 * edges + 1] = v;
                weights[edges++] = heavy ? top + 5 - (int64_t)(next() % 2) : (int64_t)(next() % (uint64_t)(top + 1));
            }
        for (int card = 0; card < 2; card++) {
            fail_from = -1;
            calls = 0;
            wm_Matcher *m = wm_new(size, edges, ends, weights);
            if (m == NULL || wm_solve(m, card, mate0) != 0) { printf("graph %d: the run without failures failed\n", g); return 1; }
            wm_free(m);
            long total = calls;
            for (persistent = 0; persistent < 2; persistent++) {
                for (long at = 0; at < total; at++) {
                    calls = failures = 0;
                    fail_from = at;
                    runs++;
                    m = wm_new(size, edges, ends, weights);
                    if (m == NULL) { stopped++; continue; }
                    int status = wm_solve(m, card, mate);
                    if (status == 0 && memcmp(mate, mate0, sizeof(int64_t) * (size_t)size) != 0) {
                        printf("graph %d: another matching after a failed allocation\n", g);
                        return 1;
                    }
                    if (status != 0 && failures == 0) { printf("graph %d: stopped without a failure\n", g); return 1; }
                    int64_t taken = size - m->unused_count;
                    if (taken > (size - 1) / 2 + 1) {
                        printf("graph %d (size %ld, failure %ld%s): %ld blossoms after the run stopped\n", g, (long)size, at,
                               persistent ? " on" : "", (long)taken);
                        return 1;
                    }
                    blossom_failures += status != 0 && m->failed;
                    stopped += status != 0;
                    wm_free(m);
                }
            }
        }
        free(ends); free(weights); free(mate0); free(mate);
    }
    printf("runs %ld stopped %ld failed-blossoms %ld\n", runs, stopped, blossom_failures);
    return 0;
}
