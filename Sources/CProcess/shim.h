// What Swift cannot call directly: prctl(2) is variadic.
#include <sys/prctl.h>

/// Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER): a
/// descendant whose parent ends becomes this process's child, not init's. 0, or -1 with errno.
static inline int rehearse_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
