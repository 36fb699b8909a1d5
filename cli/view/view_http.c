/* gltrace view's HTTP side: a libmicrohttpd daemon on epoll with a pool of threads (a
 * slow request, such as a frame read from the start of a trace that cannot seek, holds
 * up only its thread's connections), many connections and an idle timeout: idle
 * sockets that any local user can open never lock the user out (a thread per
 * connection stopped accepting at about 1,020). Every path starts with /TOKEN/; the
 * rest is the page's static files or api/ (API.md). Requests for another Host (DNS
 * rebinding), cross-origin API requests and a %00 in the URL are refused. */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt_json.h"
#include "view.h"

enum { POOL_THREADS = 8, IDLE_TIMEOUT_S = 30, MAX_HOSTS = 4 };

struct view_http {
    struct MHD_Daemon *d;
    view_server *v;
    bool any_host;                /* listening on every address: names not known */
    char hosts[MAX_HOSTS][300];   /* Host values served ("127.0.0.1:PORT", ...) */
    size_t nhosts;
};

/* The trace changed on disk (view_trace_changed), for this request's answers: set by
 * handle, read by common_headers on the same thread. */
static _Thread_local bool tl_changed;

/* uri_log's mark for a request whose raw URL holds %00 */
static char nul_mark;

static const char forbidden_page[] =
    "<!doctype html><meta charset=utf-8><title>gltrace view</title>"
    "<p>This link is stale or wrong: open the URL that <code>gltrace view</code> printed "
    "when it started.</p>\n";

static void common_headers(struct MHD_Response *r)
{
    /* the token is in every URL: no page may leak it through a Referer */
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    /* the page loads only its own files and is never framed by another site */
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' "
                            "'unsafe-inline'; script-src 'self'; connect-src 'self'; "
                            "object-src 'none'; base-uri 'none'; form-action 'none'; "
                            "frame-ancestors 'none'");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    if (tl_changed)
        MHD_add_response_header(r, "X-Gltrace-Trace-Changed", "1");
}

static enum MHD_Result send_buf(struct MHD_Connection *c, unsigned status, const char *ctype,
                                const char *data, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, gt_strbuf *b)
{
    if (b->oom) {
        b->oom = 0;
        view_json_error(b, "out of memory");
        status = 500;
    }
    return send_buf(c, status, "application/json", b->data ? b->data : "", b->len);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    view_json_error(&b, msg);
    enum MHD_Result ret = send_json(c, status, &b);
    gt_strbuf_free(&b);
    return ret;
}

/* An open file as the answer (fd taken); 404 JSON when it is not a regular file. */
static enum MHD_Result send_fd(struct MHD_Connection *c, int fd, const char *ctype,
                               const char *attachment)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return send_error(c, MHD_HTTP_NOT_FOUND, "not found");
    }
    struct MHD_Response *r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
    if (!r) {
        close(fd);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    common_headers(r);
    if (attachment) {
        char disp[256];
        snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", attachment);
        MHD_add_response_header(r, "Content-Disposition", disp);
    }
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* A file of the page as the answer; 404 JSON when it cannot be opened. */
static enum MHD_Result send_file(struct MHD_Connection *c, const char *path, const char *ctype)
{
    return send_fd(c, open(path, O_RDONLY | O_CLOEXEC), ctype, NULL);
}

static const char *content_type(const char *name)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".json", "application/json"}, {".png", "image/png"}, {".svg", "image/svg+xml"},
        {".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"},
        {".map", "application/json"}, {".woff2", "font/woff2"},
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; ++i)
        if (!strcmp(dot, types[i][0]))
            return types[i][1];
    return "application/octet-stream";
}

/* The page's files: names of [A-Za-z0-9._-] segments, none starting with a dot, so
 * nothing outside the folder (or hidden in it) is reachable. */
static enum MHD_Result send_static(struct MHD_Connection *c, view_server *v, const char *rel)
{
    if (!*rel)
        rel = "index.html";
    int seg_start = 1;
    for (const char *p = rel; *p; ++p) {
        char ch = *p;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '-' || (ch == '.' && !seg_start) || (ch == '/' && !seg_start);
        if (!ok)
            return send_error(c, MHD_HTTP_NOT_FOUND, "no such file in the page");
        seg_start = ch == '/';
    }
    if (!v->static_dir)
        return send_error(c, MHD_HTTP_NOT_FOUND, "the page's folder was not found");
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", v->static_dir, rel) >= (int)sizeof path)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such file in the page");
    return send_file(c, path, content_type(rel));
}

/* ---- search: chunked NDJSON ---- */

typedef struct search_stream {
    view_search *s;
    view_server *v;
    gt_strbuf buf;
    size_t off;
    bool more;
} search_stream;

static ssize_t search_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    search_stream *ss = cls;
    if (atomic_load(&ss->v->stopping))
        return MHD_CONTENT_READER_END_WITH_ERROR;
    while (ss->off == ss->buf.len) {
        if (!ss->more)
            return MHD_CONTENT_READER_END_OF_STREAM;
        ss->buf.len = ss->off = 0;
        ss->more = view_search_next(ss->s, &ss->buf) != 0;
        if (ss->buf.oom)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = ss->buf.len - ss->off;
    if (n > max)
        n = max;
    memcpy(out, ss->buf.data + ss->off, n);
    ss->off += n;
    return (ssize_t)n;
}

static void search_free(void *cls)
{
    search_stream *ss = cls;
    view_search_free(ss->s);
    gt_strbuf_free(&ss->buf);
    free(ss);
}

static enum MHD_Result send_search(struct MHD_Connection *c, view_server *v, const char *q,
                                   const char *from, const char *limit)
{
    gt_strbuf err;
    gt_strbuf_init(&err);
    view_search *s;
    int status = view_search_start(v, q, from, limit, &s, &err);
    if (!s) {
        enum MHD_Result ret = send_json(c, (unsigned)status, &err);
        gt_strbuf_free(&err);
        return ret;
    }
    gt_strbuf_free(&err);
    search_stream *ss = calloc(1, sizeof *ss);
    if (!ss) {
        view_search_free(s);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    ss->s = s;
    ss->v = v;
    ss->more = true;
    gt_strbuf_init(&ss->buf);
    /* unknown size on HTTP/1.1: chunked */
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, search_read, ss, search_free);
    if (!r) {
        search_free(ss);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/x-ndjson");
    common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---- routing ---- */

static const char *arg(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result send_api(struct MHD_Connection *c, view_server *v, const char *api)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    int status;
    if (!strcmp(api, "search"))
        return send_search(c, v, arg(c, "q"), arg(c, "from"), arg(c, "limit"));
    if (!strcmp(api, "thumb") || !strcmp(api, "result")) {
        int fd = -1;
        const char *ctype = "image/png", *attachment = NULL;
        status = !strcmp(api, "thumb")
                     ? view_api_thumb(v, arg(c, "frame"), &fd, &b)
                     : view_api_result(v, arg(c, "job"), &fd, &b, &ctype, &attachment);
        enum MHD_Result ret = fd >= 0 ? send_fd(c, fd, ctype, attachment)
                                      : send_json(c, (unsigned)status, &b);
        gt_strbuf_free(&b);
        return ret;
    }
    if (!strcmp(api, "summary"))
        status = view_api_summary(v, &b);
    else if (!strcmp(api, "frames"))
        status = view_api_frames(v, arg(c, "first"), arg(c, "count"), &b);
    else if (!strcmp(api, "calls"))
        status = view_api_calls(v, arg(c, "frame"), arg(c, "first"), arg(c, "count"), &b);
    else if (!strcmp(api, "state"))
        status = view_api_state(v, arg(c, "call"), arg(c, "client"), &b);
    else if (!strcmp(api, "timeline"))
        status = view_api_timeline(v, arg(c, "frames"), &b);
    else if (!strcmp(api, "job"))
        status = view_api_job(v, arg(c, "id"), &b);
    else if (!strcmp(api, "slices"))
        status = view_api_slices(v, arg(c, "first"), arg(c, "count"), &b);
    else if (!strcmp(api, "frame_of"))
        status = view_api_frame_of(v, arg(c, "call"), &b);
    else if (!strcmp(api, "diff"))
        status = view_api_diff(v, arg(c, "ref"), arg(c, "src"), &b);
    else {
        view_json_error(&b, "no such API");
        status = 404;
    }
    enum MHD_Result ret = send_json(c, (unsigned)status, &b);
    gt_strbuf_free(&b);
    return ret;
}

/* Whether a Host header names this server: one of the names it was started on (with
 * the port), any when it listens on every address. */
static bool host_served(const view_http *h, const char *host)
{
    if (h->any_host)
        return true;
    for (size_t i = 0; i < h->nhosts; ++i)
        if (!strcasecmp(host, h->hosts[i]))
            return true;
    return false;
}

/* An Origin is ours when it is http:// and a Host this server serves (when it listens
 * on every address: the request's own Host). */
static bool origin_served(const view_http *h, const char *origin, const char *host)
{
    if (strncasecmp(origin, "http://", 7) != 0)
        return false;
    origin += 7;
    if (h->any_host)
        return host && !strcasecmp(origin, host);
    return host_served(h, origin);
}

/* The raw URL, before libmicrohttpd decodes it: a %00 would cut the path short. Its
 * return value is the connection's *con_cls. Nothing is logged (the token). */
static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    return uri && strstr(uri, "%00") ? &nul_mark : NULL;
}

/* libmicrohttpd's messages, with the token replaced: they may quote a URL. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    view_http *h = cls;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    const char *t = h->v->token;
    size_t tl = strlen(t);
    for (char *p = tl ? strstr(msg, t) : NULL; p; p = strstr(p, t))
        memset(p, 'X', tl);
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n')
        msg[--n] = '\0';
    fprintf(stderr, "gltrace view: libmicrohttpd: %s\n", msg);
}

static bool is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->sa_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)a)->sin6_addr);
    return false;
}

static bool is_any(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr == htonl(INADDR_ANY);
    if (a->sa_family == AF_INET6)
        return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)a)->sin6_addr);
    return false;
}

/* The Host values a browser sends for this server. */
static void set_hosts(view_http *h, const char *host, const struct sockaddr *a, unsigned port)
{
    h->any_host = is_any(a);
    bool v6 = strchr(host, ':') != NULL;
    snprintf(h->hosts[h->nhosts++], sizeof h->hosts[0], "%s%s%s:%u", v6 ? "[" : "", host,
             v6 ? "]" : "", port);
    if (is_loopback(a)) { /* the names of this machine's loopback */
        snprintf(h->hosts[h->nhosts++], sizeof h->hosts[0], "localhost:%u", port);
        snprintf(h->hosts[h->nhosts++], sizeof h->hosts[0], "%s:%u",
                 a->sa_family == AF_INET6 ? "[::1]" : "127.0.0.1", port);
    }
}

/* As many connections as descriptors allow (the soft limit raised to the hard one),
 * less some for the trace, the cache and the children's pipes. */
static unsigned connection_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 900;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
        if (want > rl.rlim_cur) {
            struct rlimit up = {want, rl.rlim_max};
            if (setrlimit(RLIMIT_NOFILE, &up) == 0)
                rl.rlim_cur = want;
        }
    }
    rlim_t n = rl.rlim_cur == RLIM_INFINITY ? 65536 : rl.rlim_cur;
    return n > 1024 ? (unsigned)(n > 32768 ? 32768 - 256 : n - 256) : (unsigned)(n * 3 / 4);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    view_http *h = cls;
    view_server *v = h->v;
    if (*upload_size) { /* a body nobody asked for: dropped */
        *upload_size = 0;
        return MHD_YES;
    }
    tl_changed = false;
    if (*con_cls == &nul_mark) /* MHD would cut the path there: refused, not cut */
        return send_error(c, MHD_HTTP_BAD_REQUEST, "a NUL byte (%00) in the URL");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (host && !host_served(h, host))
        return send_error(c, MHD_HTTP_FORBIDDEN, "this server does not serve that Host");
    size_t tl = strlen(v->token);
    /* the token first, for every path: a wrong one learns nothing else */
    if (url[0] != '/' || strncmp(url + 1, v->token, tl) != 0 ||
        (url[1 + tl] != '/' && url[1 + tl] != '\0'))
        return send_buf(c, MHD_HTTP_FORBIDDEN, "text/html; charset=utf-8", forbidden_page,
                        sizeof forbidden_page - 1);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD");
    if (url[1 + tl] == '\0') { /* /TOKEN: the page's relative links need the slash */
        struct MHD_Response *r = MHD_create_response_from_buffer(0, "", MHD_RESPMEM_PERSISTENT);
        if (!r)
            return MHD_NO;
        char loc[64];
        snprintf(loc, sizeof loc, "/%s/", v->token);
        MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, loc);
        enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_FOUND, r);
        MHD_destroy_response(r);
        return ret;
    }
    const char *rel = url + 2 + tl;
    bool api = !strncmp(rel, "api/", 4) || !strncmp(rel, "diff/", 5);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (api && origin && !origin_served(h, origin, host))
        return send_error(c, MHD_HTTP_FORBIDDEN, "cross-origin request refused");
    char changed[GT_ERROR_MAX + 64];
    if (view_trace_changed(v, changed, sizeof changed)) {
        tl_changed = true;
        if (api) { /* every answer from the trace would be wrong: said instead */
            gt_strbuf b;
            gt_strbuf_init(&b);
            gt_strbuf_puts(&b, "{\"error\": ");
            gt_json_string(&b, changed, strlen(changed));
            gt_strbuf_puts(&b, ", \"trace_changed\": true}\n");
            enum MHD_Result ret = send_json(c, MHD_HTTP_CONFLICT, &b);
            gt_strbuf_free(&b);
            return ret;
        }
    }
    if (!strncmp(rel, "api/", 4))
        return send_api(c, v, rel + 4);
    if (!strncmp(rel, "diff/", 5)) { /* a comparison's report and images */
        gt_strbuf b;
        gt_strbuf_init(&b);
        int fd = -1;
        int status = view_diff_file(v, rel + 5, &fd, &b);
        enum MHD_Result ret = fd >= 0 ? send_fd(c, fd, content_type(rel), NULL)
                                      : send_json(c, (unsigned)status, &b);
        gt_strbuf_free(&b);
        return ret;
    }
    return send_static(c, v, rel);
}

view_http *view_http_start(view_server *v, const char *host, unsigned port, unsigned *bound_port,
                           gt_error *err)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV | AI_PASSIVE};
    struct addrinfo *ai = NULL;
    char ports[16];
    snprintf(ports, sizeof ports, "%u", port);
    int gai = getaddrinfo(host, ports, &hints, &ai);
    if (gai != 0) {
        gt_error_set(err, "cannot listen on %s: %s", host, gai_strerror(gai));
        return NULL;
    }
    view_http *h = calloc(1, sizeof *h);
    if (!h) {
        freeaddrinfo(ai);
        gt_error_set(err, "out of memory");
        return NULL;
    }
    h->v = v;
    if (!is_loopback(ai->ai_addr)) /* said before it is done */
        fprintf(stderr, "gltrace view: warning: listening on %s, not on this machine's loopback: "
                "%s is served to the network, to anyone who learns the URL (and the token "
                "travels unencrypted)\n", host, v->trace);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
                     (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0);
    /* no per-address limit: every local user, the one with the token too, is 127.0.0.1 */
    /* the logger first: libmicrohttpd's messages about the options go through it too */
    h->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, h,
                            MHD_OPTION_EXTERNAL_LOGGER, mhd_log, (void *)h, MHD_OPTION_SOCK_ADDR,
                            ai->ai_addr, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, (void *)h, MHD_OPTION_END);

    if (!h->d) {
        gt_error_set(err, "cannot listen on %s:%u: %s", host, port,
                     errno ? strerror(errno) : "libmicrohttpd refused");
        freeaddrinfo(ai);
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    *bound_port = info ? info->port : port;
    set_hosts(h, host, ai->ai_addr, *bound_port);
    freeaddrinfo(ai);
    return h;
}

void view_http_stop(view_http *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    free(h);
}
