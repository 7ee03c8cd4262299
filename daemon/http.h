/* The lab page over HTTP: GET / the page, POST /rpc the socket's methods; off unless configured. */
#ifndef SHOUTAN_HTTP_H
#define SHOUTAN_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>

/* "host:port" into its parts: a host of letters, digits, dots, colons (IPv6 in brackets) and
 * dashes, and a port from 1 to 65535; a port alone is on 127.0.0.1; false with why. */
bool http_address_parse(const char *address, char *host, size_t hostlen, int *port, char *why,
    size_t whylen);
/* Serves the page and /rpc on address; false with why (the address, the bind's error). */
bool http_start(struct event_base *base, const char *address, char *why, size_t whylen);
/* No new HTTP connections (a drain); requests already read are still answered. */
void http_stop_listening(void);
/* Frees the server; answers still awaited are dropped with their connections. */
void http_free(void);

#endif
