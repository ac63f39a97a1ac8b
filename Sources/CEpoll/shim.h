#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <signal.h>
#include <malloc.h>

// glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is built without.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// prctl is variadic, which Swift cannot call: the one use, a signal sent to this process when the
// process that started it dies (PR_SET_PDEATHSIG).
static inline int moim_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

// The processors this process may run on (taskset, a container's CPU set); 0 if unknown.
// glibc declares sched_getaffinity only under _GNU_SOURCE.
extern int sched_getaffinity(int pid, size_t size, void *mask);
static inline int moim_allowed_processors(void) {
    unsigned long long mask[16] = {0};
    if (sched_getaffinity(0, sizeof mask, mask) != 0) return 0;
    int count = 0;
    for (int i = 0; i < 16; i++) count += __builtin_popcountll(mask[i]);
    return count;
}
