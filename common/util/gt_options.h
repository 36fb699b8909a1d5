/* Values of command-line options that every tool reads alike. */
#ifndef GT_OPTIONS_H
#define GT_OPTIONS_H

/* "yes"/"no" and the other spellings apitrace's tools accept (1/0, true/false, on/off,
 * y/n, any case); NULL (an option given without a value) is yes. 1, 0, or -1 when the
 * text is none of them. */
int gt_parse_bool(const char *s);

#endif
