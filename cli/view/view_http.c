/* gltrace view's HTTP side: a libmicrohttpd daemon (its own polling thread, a thread per
 * connection: a slow request, such as a frame read from the start of a trace that
 * cannot seek, holds up no other). Every path starts with /TOKEN/; the rest is the
 * page's static files or api/ (API.md). */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "view.h"

struct view_http {
    struct MHD_Daemon *d;
    view_server *v;
};

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

/* A file as the answer; 404 JSON when it cannot be opened. */
static enum MHD_Result send_file(struct MHD_Connection *c, const char *path, const char *ctype,
                                 const char *attachment)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
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
    return send_file(c, path, content_type(rel), NULL);
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
        char *path = NULL;
        const char *ctype = "image/png", *attachment = NULL;
        status = !strcmp(api, "thumb")
                     ? view_api_thumb(v, arg(c, "frame"), &path, &b)
                     : view_api_result(v, arg(c, "job"), &path, &b, &ctype, &attachment);
        enum MHD_Result ret = path ? send_file(c, path, ctype, attachment)
                                   : send_json(c, (unsigned)status, &b);
        free(path);
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
        status = view_api_state(v, arg(c, "call"), &b);
    else if (!strcmp(api, "timeline"))
        status = view_api_timeline(v, &b);
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

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    (void)con_cls;
    view_http *h = cls;
    view_server *v = h->v;
    if (*upload_size) { /* a body nobody asked for: dropped */
        *upload_size = 0;
        return MHD_YES;
    }
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
    if (!strncmp(rel, "api/", 4))
        return send_api(c, v, rel + 4);
    if (!strncmp(rel, "diff/", 5)) { /* a comparison's report and images */
        gt_strbuf b;
        gt_strbuf_init(&b);
        char *path = NULL;
        int status = view_diff_file(v, rel + 5, &path, &b);
        enum MHD_Result ret = path ? send_file(c, path, content_type(path), NULL)
                                   : send_json(c, (unsigned)status, &b);
        free(path);
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
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_ERROR_LOG | (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0);
    h->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR,
                            ai->ai_addr, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
                            MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!h->d) {
        gt_error_set(err, "cannot listen on %s:%u: %s", host, port,
                     errno ? strerror(errno) : "libmicrohttpd refused");
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    *bound_port = info ? info->port : port;
    return h;
}

void view_http_stop(view_http *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    free(h);
}
