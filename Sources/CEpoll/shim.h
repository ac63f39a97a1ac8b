#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is built without.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
