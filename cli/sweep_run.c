/* The rows of `pqpan sweep` on worker threads, written in configuration order: workers
 * take blocks of consecutive configurations in turn and format each block into its own
 * buffer; this thread writes the buffers in block order, so the output is the same
 * bytes for any number of threads. At most SLOTS_PER_JOB blocks per worker are held at
 * once, so memory does not grow with the sweep. SIGINT stops the workers; every block
 * finished before the first unfinished one is written. Each worker owns its state
 * (sweep_writer_new: the run layer's worker, with its loaded environment and the BLE
 * estimator's set-up memo, and the simulator of --per), so nothing computed is shared
 * between threads and the rows do not depend on which worker ran them. POSIX threads (the
 * CLI only: the library has no threads). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

#define SLOTS_PER_JOB 4
/* Configurations per block: many for the analytic estimate, one when each runs the
 * packet simulator --runs times. */
#define BLOCK_ESTIMATE 64u
#define BLOCK_MONTE_CARLO 1u
/* Progress line refresh and the writer's longest wait between checks of SIGINT. */
#define TICK_NS 250000000L

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_DONE, SLOT_ABANDONED };

struct slot {
    enum slot_state state;
    char *buf;
    size_t len;
};

struct run {
    const struct sweep_cfg *cfg;
    uint64_t block, n_blocks; /* configurations per block; blocks */
    pthread_mutex_t mu;
    pthread_cond_t filled;  /* a slot became done or abandoned */
    pthread_cond_t freed;   /* the writer freed a slot, or the run stops */
    struct slot *slots;
    size_t n_slots;
    uint64_t next;    /* next block to take */
    uint64_t written; /* blocks written */
    int stop;
    int rc;           /* first fatal error of a worker */
    struct cli_msg msg;
};

/* Set by the SIGINT handler, read by every thread: the CLI's one mutable global (a
 * signal handler has nowhere else to write). Lock-free, so safe in the handler. */
static atomic_int interrupted;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the SIGINT flag must be lock-free");

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

void sweep_sigint_catch(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    atomic_store(&interrupted, 0);
    sigaction(SIGINT, &sa, old);
}

void sweep_sigint_restore(const struct sigaction *old)
{
    sigaction(SIGINT, old, NULL);
}

/* Formats block b into a new buffer. EXIT_OK, SWEEP_EXIT_INTERRUPTED (abandoned), or a
 * fatal code with the message in *msg. */
static int fill_block(struct sweep_writer *w, const struct run *r, uint64_t b, struct slot *s,
                      struct cli_msg *msg)
{
    uint64_t c = r->cfg->lo + b * r->block;
    uint64_t end = r->cfg->hi - c > r->block ? c + r->block : r->cfg->hi;
    FILE *f = open_memstream(&s->buf, &s->len);
    int rc = EXIT_OK;
    if (f == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    flockfile(f); /* this thread's stream: one lock for the block, not one per field */
    for (; c < end && rc == EXIT_OK; c++) {
        rc = atomic_load(&interrupted) ? SWEEP_EXIT_INTERRUPTED : sweep_write_row(f, w, c, msg);
    }
    funlockfile(f);
    if (fclose(f) != 0 && rc == EXIT_OK) {
        rc = cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    return rc;
}

static void *worker_main(void *arg)
{
    struct run *r = arg;
    struct sweep_writer *w = sweep_writer_new(r->cfg);
    struct cli_msg msg;
    pthread_mutex_lock(&r->mu);
    if (w == NULL) {
        r->rc = cli_msg_set(&r->msg, EXIT_FAILURE_RUN, "out of memory");
        r->stop = 1;
    }
    while (!r->stop && r->next < r->n_blocks) {
        uint64_t b;
        struct slot *s;
        int rc;
        if (r->next - r->written >= r->n_slots) {
            pthread_cond_wait(&r->freed, &r->mu);
            continue;
        }
        b = r->next++;
        s = &r->slots[b % r->n_slots];
        s->state = SLOT_FILLING;
        pthread_mutex_unlock(&r->mu);
        rc = fill_block(w, r, b, s, &msg);
        pthread_mutex_lock(&r->mu);
        s->state = rc == EXIT_OK ? SLOT_DONE : SLOT_ABANDONED;
        if (rc != EXIT_OK && rc != SWEEP_EXIT_INTERRUPTED && r->rc == EXIT_OK) {
            r->rc = rc;
            r->msg = msg;
        }
        r->stop |= rc != EXIT_OK;
        pthread_cond_signal(&r->filled);
    }
    pthread_cond_signal(&r->filled);
    pthread_mutex_unlock(&r->mu);
    sweep_writer_free(w);
    return NULL;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* "done/total configurations, rate/s, ETA" on one refreshed stderr line. */
static void progress(const struct run *r, const struct timespec *t0, int last)
{
    uint64_t total = r->cfg->hi - r->cfg->lo, done = r->written * r->block;
    double s = seconds_since(t0), rate;
    unsigned long eta;
    done = done < total ? done : total;
    rate = s > 0.0 ? (double)done / s : 0.0;
    eta = rate > 0.0 ? (unsigned long)((double)(total - done) / rate + 0.5) : 0;
    fprintf(stderr, "\rpqpan sweep: %llu/%llu configurations, %.0f/s, ETA %lu:%02lu:%02lu ",
            (unsigned long long)done, (unsigned long long)total, rate, eta / 3600,
            eta / 60 % 60, eta % 60);
    if (last) {
        fputc('\n', stderr);
    }
}

static void deadline(struct timespec *t)
{
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_nsec += TICK_NS;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

/* Waits until the next block to write is finished; 1 if it is done, 0 if the run ends
 * before it (stopped, interrupted or abandoned). Called with the lock held. */
static int next_done(struct run *r, const struct timespec *t0, int show)
{
    struct slot *s = &r->slots[r->written % r->n_slots];
    while (s->state != SLOT_DONE) {
        struct timespec t;
        if (atomic_load(&interrupted) && !r->stop) {
            r->stop = 1;
            pthread_cond_broadcast(&r->freed);
        }
        if (s->state == SLOT_ABANDONED || (r->stop && s->state == SLOT_FREE)) {
            return 0;
        }
        deadline(&t);
        if (pthread_cond_timedwait(&r->filled, &r->mu, &t) == ETIMEDOUT && show) {
            progress(r, t0, 0);
        }
    }
    return 1;
}

/* Writes the blocks in order as they finish. EXIT_OK or EXIT_IO. */
static int write_blocks(struct run *r, FILE *out)
{
    struct timespec t0, last;
    int show = isatty(STDERR_FILENO), rc = EXIT_OK;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = t0;
    pthread_mutex_lock(&r->mu);
    while (r->written < r->n_blocks && next_done(r, &t0, show)) {
        struct slot *s = &r->slots[r->written % r->n_slots];
        char *buf = s->buf;
        size_t len = s->len;
        s->buf = NULL;
        s->state = SLOT_FREE;
        pthread_mutex_unlock(&r->mu);
        if (rc == EXIT_OK && fwrite(buf, 1, len, out) != len) {
            rc = EXIT_IO;
        }
        free(buf);
        pthread_mutex_lock(&r->mu);
        r->written++;
        r->stop |= rc != EXIT_OK;
        pthread_cond_broadcast(&r->freed);
        if (show && seconds_since(&last) * 1e9 >= (double)TICK_NS) {
            clock_gettime(CLOCK_MONOTONIC, &last);
            progress(r, &t0, 0);
        }
        if (rc != EXIT_OK) {
            break;
        }
    }
    r->stop = 1;
    pthread_cond_broadcast(&r->freed);
    pthread_mutex_unlock(&r->mu);
    if (show) {
        progress(r, &t0, 1);
    }
    return rc;
}

static void free_slots(struct run *r)
{
    size_t k;
    for (k = 0; k < r->n_slots; k++) {
        free(r->slots[k].buf);
    }
    free(r->slots);
}

static int run_threads(struct run *r, FILE *out)
{
    pthread_t *t = calloc(r->cfg->jobs, sizeof *t);
    unsigned k, started = 0;
    int rc;
    if (t == NULL) {
        return cli_msg_set(&r->msg, EXIT_FAILURE_RUN, "out of memory");
    }
    for (k = 0; k < r->cfg->jobs; k++) {
        if (pthread_create(&t[k], NULL, worker_main, r) != 0) {
            break;
        }
        started++;
    }
    if (started == 0) {
        free(t);
        return cli_msg_set(&r->msg, EXIT_FAILURE_RUN, "cannot start a thread");
    }
    rc = write_blocks(r, out);
    for (k = 0; k < started; k++) {
        pthread_join(t[k], NULL);
    }
    free(t);
    if (rc == EXIT_IO) {
        return cli_msg_set(&r->msg, EXIT_IO, "cannot write the output");
    }
    if (r->rc != EXIT_OK) {
        return r->rc;
    }
    return atomic_load(&interrupted) ? SWEEP_EXIT_INTERRUPTED : EXIT_OK;
}

int sweep_run(FILE *out, const struct sweep_cfg *cfg)
{
    struct run r;
    uint64_t n = cfg->hi - cfg->lo;
    int rc;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    r.block = cfg->per ? BLOCK_MONTE_CARLO : BLOCK_ESTIMATE;
    r.n_blocks = n / r.block + (n % r.block != 0);
    r.n_slots = (size_t)cfg->jobs * SLOTS_PER_JOB;
    r.slots = calloc(r.n_slots, sizeof *r.slots);
    if (r.slots == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", SWEEP_CMD);
        return EXIT_FAILURE_RUN;
    }
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.filled, NULL);
    pthread_cond_init(&r.freed, NULL);
    rc = run_threads(&r, out);
    if (rc == SWEEP_EXIT_INTERRUPTED) {
        uint64_t done = r.written * r.block;
        fprintf(stderr, "pqpan %s: interrupted: the first %llu of %llu configurations written\n",
                SWEEP_CMD, (unsigned long long)(done < n ? done : n), (unsigned long long)n);
    } else if (rc != EXIT_OK) {
        cli_msg_report(SWEEP_CMD, rc, &r.msg);
    }
    pthread_cond_destroy(&r.freed);
    pthread_cond_destroy(&r.filled);
    pthread_mutex_destroy(&r.mu);
    free_slots(&r);
    return rc;
}
