/* SPDX-License-Identifier: MIT */
/* base/errmsg.h: a formatted error message handed to the caller, who prints it (or not). */
#ifndef IOBUFVIZ_ERRMSG_H
#define IOBUFVIZ_ERRMSG_H

/* Set *err (if err is not NULL) to a heap string made from fmt; NULL if out of memory. */
void errmsg_set(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
