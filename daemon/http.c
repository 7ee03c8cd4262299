/* The lab page over HTTP: GET / the page, POST /rpc the socket's methods; off unless configured. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/util.h>

#include "http.h"
#include "lab_page.h"
#include "log.h"
#include "server_impl.h"

/*
 * A POST /rpc is one request line for the daemon.  It goes in through a socket pair whose one
 * end is adopted as a client connection (conn_accept), so an HTTP request gets exactly what a
 * socket client gets: the same limits, the reply cache, the worker pool, the same errors; the
 * other end reads the one reply line and sends it back as the response.
 */

static struct evhttp *http;
static struct evhttp_bound_socket *bound;

/* How long a request may wait for its reply beyond the workers' own time limit. */
#define HTTP_REPLY_GRACE_S 5
/* Headers a browser sends are a few hundred bytes; more is no browser. */
#define HTTP_MAX_HEADERS_BYTES 16384
/* Seconds a client may take to send its request or read the response. */
#define HTTP_IO_TIMEOUT_S 30

struct call {
	struct evhttp_request *req;
	struct bufferevent *bev;  /* our end of the socket pair */
};

bool
http_address_parse(const char *address, char *host, size_t hostlen, int *port, char *why,
    size_t whylen)
{
	const char *colon = strrchr(address, ':'), *h = address;
	size_t n;
	char *end;
	long p;

	/* A port alone is on loopback: the page is this machine's unless an address says
	 * otherwise. */
	if (address[0] != '\0' && strspn(address, "0123456789") == strlen(address)) {
		p = strtol(address, NULL, 10);
		if (p < 1 || p > 65535 || strlen(address) > 5 || hostlen < sizeof("127.0.0.1")) {
			snprintf(why, whylen, "http: '%s' is no port from 1 to 65535", address);
			return false;
		}
		snprintf(host, hostlen, "127.0.0.1");
		*port = (int)p;
		return true;
	}
	if (colon == NULL || colon == address) {
		snprintf(why, whylen, "http: '%s' is not host:port (127.0.0.1:8080) or a port",
		    address);
		return false;
	}
	n = (size_t)(colon - address);
	/* [::1]:8080 */
	if (h[0] == '[' && n >= 2 && h[n - 1] == ']') {
		h++;
		n -= 2;
	}
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)h[i]) && h[i] != '.' && h[i] != ':' && h[i] != '-') {
			snprintf(why, whylen, "http: '%s': the host may hold letters, digits, '.', ':' "
			    "and '-'", address);
			return false;
		}
	p = strtol(colon + 1, &end, 10);
	if (n == 0 || n >= hostlen || end == colon + 1 || *end != '\0' || p < 1 || p > 65535) {
		snprintf(why, whylen, "http: '%s' is not host:port with a port from 1 to 65535",
		    address);
		return false;
	}
	memcpy(host, h, n);
	host[n] = '\0';
	*port = (int)p;
	return true;
}

static void
add_headers(struct evhttp_request *req, const char *type)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);

	/* No Access-Control-* header: other sites' pages may not call the daemon. */
	evhttp_add_header(h, "Content-Type", type);
	evhttp_add_header(h, "Cache-Control", "no-store");
	evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
	evhttp_add_header(h, "X-Frame-Options", "DENY");
}

static void
send_text(struct evhttp_request *req, int code, const char *reason, const char *text)
{
	struct evbuffer *body = evbuffer_new();

	add_headers(req, "text/plain; charset=utf-8");
	if (body != NULL)
		evbuffer_add_printf(body, "%s\n", text);
	evhttp_send_reply(req, code, reason, body);
	if (body != NULL)
		evbuffer_free(body);
}

static void
call_end(struct call *call)
{
	/* Closing our end lets the adopted connection see its client gone, and free itself. */
	bufferevent_free(call->bev);
	free(call);
}

/* The reply line came back: it is the response, as the socket would have given it. */
static void
call_read(struct bufferevent *bev, void *arg)
{
	struct call *call = arg;
	struct evbuffer *in = bufferevent_get_input(bev), *body;
	struct evbuffer_ptr nl = evbuffer_search(in, "\n", 1, NULL);

	if (nl.pos < 0)
		return;
	if ((body = evbuffer_new()) == NULL) {
		send_text(call->req, 503, "Service Unavailable", "out of memory");
	} else {
		evbuffer_remove_buffer(in, body, (size_t)nl.pos + 1);
		add_headers(call->req, "application/json");
		/* A client that went away meanwhile: evhttp frees the request here. */
		evhttp_send_reply(call->req, 200, "OK", body);
		evbuffer_free(body);
	}
	call_end(call);
}

static void
call_event(struct bufferevent *bev, short what, void *arg)
{
	struct call *call = arg;

	(void)bev;
	if (what & BEV_EVENT_TIMEOUT)
		send_text(call->req, 504, "Gateway Timeout", "no reply in time");
	else
		send_text(call->req, 502, "Bad Gateway", "the daemon closed the request without a "
		    "reply");
	call_end(call);
}

/* Content-Type: application/json, with or without parameters (charset=utf-8). */
static bool
json_content(struct evhttp_request *req)
{
	const char *type = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Content-Type");
	size_t n = strlen("application/json");

	return type != NULL && strncasecmp(type, "application/json", n) == 0 &&
	    (type[n] == '\0' || type[n] == ';' || type[n] == ' ');
}

static void
rpc(struct evhttp_request *req)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	struct timeval reply_within = { srv.cfg.request_timeout_ms / 1000 + HTTP_REPLY_GRACE_S, 0 };
	struct call *call;
	char *line;
	int sv[2];

	if (srv.draining) {
		send_text(req, 503, "Service Unavailable", "the daemon is stopping");
		return;
	}
	if (!json_content(req)) {
		send_text(req, 415, "Unsupported Media Type", "POST /rpc takes Content-Type: "
		    "application/json, one JSON-RPC 2.0 request");
		return;
	}
	if (len == 0) {
		send_text(req, 400, "Bad Request", "POST /rpc takes one JSON-RPC 2.0 request as its "
		    "body; this one is empty");
		return;
	}
	if ((line = malloc(len + 1)) == NULL || (call = calloc(1, sizeof(*call))) == NULL) {
		free(line);
		send_text(req, 503, "Service Unavailable", "out of memory");
		return;
	}
	evbuffer_remove(in, line, len);
	/* The socket's requests are lines: a line break in a JSON text can only be white
	 * space between its tokens (in a string it is escaped), so it becomes a space. */
	for (size_t i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len] = '\n';
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		log_warning("http: no socket pair for a request: %s", strerror(errno));
		free(line);
		free(call);
		send_text(req, 503, "Service Unavailable", "cannot take the request now");
		return;
	}
	evutil_make_socket_nonblocking(sv[0]);
	evutil_make_socket_nonblocking(sv[1]);
	call->req = req;
	call->bev = bufferevent_socket_new(srv.base, sv[1], BEV_OPT_CLOSE_ON_FREE);
	if (call->bev == NULL) {
		close(sv[0]);
		close(sv[1]);
		free(line);
		free(call);
		send_text(req, 503, "Service Unavailable", "cannot take the request now");
		return;
	}
	/* A connection like any client's: refused with an error line when there are too many. */
	conn_accept(NULL, sv[0], NULL, 0, NULL);
	bufferevent_setcb(call->bev, call_read, NULL, call_event, call);
	bufferevent_set_timeouts(call->bev, &reply_within, NULL);
	bufferevent_write(call->bev, line, len + 1);
	bufferevent_enable(call->bev, EV_READ);
	free(line);
}

static void
page(struct evhttp_request *req)
{
	struct evbuffer *body = evbuffer_new();
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);

	add_headers(req, "text/html; charset=utf-8");
	/* The page's own script and styles only, and requests to this daemon only. */
	evhttp_add_header(h, "Content-Security-Policy", "default-src 'none'; script-src "
	    "'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'self'; "
	    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
	if (body != NULL)
		evbuffer_add_reference(body, lab_page, lab_page_len, NULL, NULL);
	evhttp_send_reply(req, 200, "OK", body);
	if (body != NULL)
		evbuffer_free(body);
}

/* The two things this server does; anything else is refused, saying what it takes. */
static void
route(struct evhttp_request *req, void *arg)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri != NULL ? evhttp_uri_get_path(uri) : NULL;
	enum evhttp_cmd_type method = evhttp_request_get_command(req);

	(void)arg;
	if (path != NULL && strcmp(path, "/") == 0) {
		if (method == EVHTTP_REQ_GET || method == EVHTTP_REQ_HEAD) {
			page(req);
			return;
		}
		evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
		send_text(req, 405, "Method Not Allowed", "/ takes GET");
	} else if (path != NULL && strcmp(path, "/rpc") == 0) {
		if (method == EVHTTP_REQ_POST) {
			rpc(req);
			return;
		}
		evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "POST");
		send_text(req, 405, "Method Not Allowed", "/rpc takes POST");
	} else {
		send_text(req, 404, "Not Found", "this server has / (the lab page) and /rpc (POST)");
	}
}

static bool
loopback(const char *host)
{
	return strcmp(host, "localhost") == 0 || strcmp(host, "::1") == 0 ||
	    strncmp(host, "127.", 4) == 0;
}

bool
http_start(struct event_base *base, const char *address, char *why, size_t whylen)
{
	char host[256];
	int port;

	if (!http_address_parse(address, host, sizeof(host), &port, why, whylen))
		return false;
	if ((http = evhttp_new(base)) == NULL) {
		snprintf(why, whylen, "http: out of memory");
		return false;
	}
	/* Every method reaches route(), which answers 405 with what the path takes. */
	evhttp_set_allowed_methods(http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD |
	    EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE |
	    EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
	/* The socket's limit on a request is the body's (413 beyond it). */
	evhttp_set_max_body_size(http, (ev_ssize_t)srv.cfg.max_request_bytes);
	evhttp_set_max_headers_size(http, HTTP_MAX_HEADERS_BYTES);
	evhttp_set_timeout(http, HTTP_IO_TIMEOUT_S);
	evhttp_set_gencb(http, route, NULL);
	if ((bound = evhttp_bind_socket_with_handle(http, host, (ev_uint16_t)port)) == NULL) {
		snprintf(why, whylen, "http: cannot listen on %s: %s", address, strerror(errno));
		evhttp_free(http);
		http = NULL;
		return false;
	}
	if (loopback(host))
		log_info("lab page on http://%s:%d/ (loopback: this machine only)", host, port);
	else
		log_warning("lab page on http://%s:%d/, which is not loopback: whoever reaches it may "
		    "use this daemon", host, port);
	return true;
}

void
http_stop_listening(void)
{
	if (http != NULL && bound != NULL) {
		evhttp_del_accept_socket(http, bound);
		bound = NULL;
	}
}

void
http_free(void)
{
	if (http != NULL)
		evhttp_free(http);
	http = NULL;
	bound = NULL;
}
