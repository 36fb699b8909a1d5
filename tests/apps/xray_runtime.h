/* The XRay runtime's C entry points (compiler-rt's own headers are C++), for the test
 * programs that start and stop their own XRay log. */
#ifndef XRAY_RUNTIME_H
#define XRAY_RUNTIME_H

int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

#endif
