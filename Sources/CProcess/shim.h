// What Swift cannot call directly: prctl(2) is variadic; sched_getcpu(3) and sched_setaffinity(2)
// are GNU extensions that Glibc's Swift module leaves out, and CPU_SET and friends are macros.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>

/// Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER): a
/// descendant whose parent ends becomes this process's child, not init's. 0, or -1 with errno.
static inline int rehearse_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/// The CPU the calling thread runs on now (sched_getcpu(3), through the vDSO), or -1.
static inline int rehearse_current_cpu(void) {
    return sched_getcpu();
}

/// The CPUs the calling thread may run on (its affinity mask, which a process it starts inherits)
/// in `cpus`: 0, or an errno value.
static inline int rehearse_calling_thread_cpus(cpu_set_t *cpus) {
    return sched_getaffinity(0, sizeof *cpus, cpus) == 0 ? 0 : errno;
}

/// Whether `cpus` holds `cpu`.
static inline int rehearse_cpus_hold(const cpu_set_t *cpus, int cpu) {
    return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, cpus);
}

/// Whether `cpus` holds `cpu` and no other.
static inline int rehearse_cpus_are_only(const cpu_set_t *cpus, int cpu) {
    return rehearse_cpus_hold(cpus, cpu) && CPU_COUNT(cpus) == 1;
}

/// Lets the thread `tid` (0: the calling thread; a process id: its main thread) run on `cpu`
/// alone (sched_setaffinity(2)): 0, or an errno value.
static inline int rehearse_place_on_cpu(pid_t tid, int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    return sched_setaffinity(tid, sizeof cpus, &cpus) == 0 ? 0 : errno;
}

/// Lets the calling thread run on `cpus` (sched_setaffinity(2)): 0, or an errno value.
static inline int rehearse_set_calling_thread_cpus(const cpu_set_t *cpus) {
    return sched_setaffinity(0, sizeof *cpus, cpus) == 0 ? 0 : errno;
}
