/* apitrace's gltrace.conf: answers to configure, so a recording looks as if made on
 * another GPU (gl_conf.c). Read once, on first use. */
#ifndef GL_CONF_H
#define GL_CONF_H

/* The configured string for glGetString(name), or NULL. */
const char *gl_conf_string(unsigned name);
/* 1 and *value when glGetIntegerv(pname) is configured (GL_NUM_EXTENSIONS: the number of
 * names of a configured GL_EXTENSIONS). */
int gl_conf_integer(unsigned pname, long long *value);
/* 1 when GL_EXTENSIONS is configured; then *name is its index-th name, or NULL. */
int gl_conf_extension(unsigned index, const char **name);

#endif
