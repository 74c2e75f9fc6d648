/* SPDX-License-Identifier: MIT */
/* base/sha256.h: SHA-256 (FIPS 180-4) of a string, as a web page's Content-Security-Policy
 * names an inline script or style it allows ('sha256-BASE64'). */
#ifndef IOBUFVIZ_SHA256_H
#define IOBUFVIZ_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The digest of n bytes of data into out. */
void sha256(const void *data, size_t n, uint8_t out[32]);

/* The digest of n bytes of data in base64 (44 characters and a NUL) into out. Return out. */
char *sha256_base64(const void *data, size_t n, char out[45]);

#endif
