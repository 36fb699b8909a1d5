/* The syntax of a backtrace call set (--backtrace=CALLSET, GLTRACE_BACKTRACE),
 * checked by the front end before the program runs and by the recording
 * library when it reads the variable. */
#ifndef BACKTRACE_SET_H
#define BACKTRACE_SET_H

#include <stddef.h>

/* Words separated by commas or white space: `all`, `none`, `default` or a glob
 * of a function name (letters, digits, _, and * ? [...] with ! or ^ to negate
 * and - for ranges). 0 when valid; -1 with the reason in why. */
int gltrace_backtrace_set_check(const char *spec, char *why, size_t n);

#endif
