/*
 * phe_driver: times phevaluator's C core (evaluate_6cards) on pre-generated random six-card
 * holdings, with no Python in the loop. Built by benchmarks/build_phe_driver.sh against the
 * C sources of phevaluator's sdist; with --so PATH it instead calls evaluate_6cards in that
 * shared object (the compiled extension the phevaluator wheel ships) through dlopen.
 *
 * Usage: phe_driver [--so PATH] [--hands N] [--seconds S] [--repeats R]
 * Prints one line per repeat: "rate <evaluations per CPU-second>", then
 * "maxrss_kib <peak RSS>" and "checksum <sum of ranks>".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int evaluate_6cards(int a, int b, int c, int d, int e, int f);

typedef int (*eval6_fn)(int, int, int, int, int, int);

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    const char *so_path = NULL;
    long hands = 1L << 20;
    double seconds = 1.0;
    int repeats = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--so") && i + 1 < argc) so_path = argv[++i];
        else if (!strcmp(argv[i], "--hands") && i + 1 < argc) hands = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = atoi(argv[++i]);
        else { fprintf(stderr, "unknown argument %s\n", argv[i]); return 2; }
    }
    eval6_fn eval6 = evaluate_6cards;
    if (so_path) {
        void *handle = dlopen(so_path, RTLD_LAZY | RTLD_LOCAL);
        if (!handle) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
        eval6 = (eval6_fn)dlsym(handle, "evaluate_6cards");
        if (!eval6) { fprintf(stderr, "dlsym: %s\n", dlerror()); return 1; }
    }
    /* Random six-card holdings of distinct cards (partial Fisher-Yates per holding). */
    unsigned char *cards = malloc((size_t)hands * 6);
    if (!cards) return 1;
    for (long h = 0; h < hands; h++) {
        unsigned char deck[52];
        for (int i = 0; i < 52; i++) deck[i] = (unsigned char)i;
        for (int i = 0; i < 6; i++) {
            int j = i + (int)(next_random() % (uint64_t)(52 - i));
            unsigned char t = deck[i]; deck[i] = deck[j]; deck[j] = t;
            cards[h * 6 + i] = deck[i];
        }
    }
    long long checksum = 0;
    /* Warm-up pass (tables into cache, pages touched). */
    for (long h = 0; h < hands; h++) {
        const unsigned char *c = cards + h * 6;
        checksum += eval6(c[0], c[1], c[2], c[3], c[4], c[5]);
    }
    for (int r = 0; r < repeats; r++) {
        long long done = 0;
        double start = cpu_seconds(), elapsed = 0.0;
        do {
            for (long h = 0; h < hands; h++) {
                const unsigned char *c = cards + h * 6;
                checksum += eval6(c[0], c[1], c[2], c[3], c[4], c[5]);
            }
            done += hands;
            elapsed = cpu_seconds() - start;
        } while (elapsed < seconds);
        printf("rate %.1f\n", done / elapsed);
        fflush(stdout);
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("maxrss_kib %ld\n", usage.ru_maxrss);
    printf("checksum %lld\n", checksum);
    return 0;
}
