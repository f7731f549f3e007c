/*
 * The floor of any relay on this machine: a single-threaded epoll loop that writes each chunk read
 * on one socket to the other, with nothing else (no protocol, no capture, no allocation). Built by
 * the benchmark with the system's C compiler when there is one.
 *   usage: relay <listen port> <upstream port>   (both on 127.0.0.1); prints LISTENING <port>
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FDS 65536
static int peer[MAX_FDS];

static struct sockaddr_in loopback(int port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  return a;
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int one = 1, upstream = atoi(argv[2]);
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in at = loopback(atoi(argv[1]));
  if (bind(listener, (struct sockaddr *)&at, sizeof at) || listen(listener, 128)) return perror("listen"), 1;
  socklen_t len = sizeof at;
  getsockname(listener, (struct sockaddr *)&at, &len);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = listener};
  epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
  printf("LISTENING %d\n", ntohs(at.sin_port));
  fflush(stdout);
  static char buf[65536];
  struct epoll_event ready[64];
  for (;;) {
    int n = epoll_wait(ep, ready, 64, -1);
    for (int i = 0; i < n; i++) {
      int fd = ready[i].data.fd;
      if (fd == listener) {
        int client = accept(listener, 0, 0);
        int server = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in to = loopback(upstream);
        if (client < 0 || client >= MAX_FDS || server < 0 || server >= MAX_FDS || connect(server, (struct sockaddr *)&to, sizeof to)) {
          if (client >= 0) close(client);
          if (server >= 0) close(server);
          continue;
        }
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        peer[client] = server;
        peer[server] = client;
        struct epoll_event a = {.events = EPOLLIN, .data.fd = client}, b = {.events = EPOLLIN, .data.fd = server};
        epoll_ctl(ep, EPOLL_CTL_ADD, client, &a);
        epoll_ctl(ep, EPOLL_CTL_ADD, server, &b);
        continue;
      }
      ssize_t got = read(fd, buf, sizeof buf);
      if (got <= 0) {
        close(peer[fd]);
        close(fd);
        continue;
      }
      /* Blocking sockets: a write returns when all of it is queued. */
      for (ssize_t off = 0; off < got;) {
        ssize_t wrote = write(peer[fd], buf + off, got - off);
        if (wrote <= 0) break;
        off += wrote;
      }
    }
  }
}
