/* A process that no scan of /proc followed by kill() ends: it forks, its parent exits at once,
   and the child leaves its session (setsid) and does it again, for 5 s at most. Every hop holds a
   shared lock on LOCK-FILE (its one argument), so that whoever takes the lock exclusively knows
   that no hop is left. Built by PluginRemainsTests (cc hopper.c -o hopper). */
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    int lock = open(argv[1], O_RDONLY | O_CREAT, 0600);
    if (lock < 0 || flock(lock, LOCK_SH) != 0) return 1;
    for (int descriptor = 0; descriptor < 3; descriptor++) close(descriptor);
    time_t end = time(NULL) + 5;
    for (unsigned long hops = 1;; hops++) {
        pid_t child = fork();
        if (child > 0) _exit(0);
        if (child == 0) setsid();
        if (hops % 1000 == 0 && time(NULL) > end) _exit(0);
    }
}
