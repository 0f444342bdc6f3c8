/*
 * sha256.h - SHA-256 (FIPS 180-4), incremental and one-shot, with lowercase
 * hex output as 001 §2.1 uses for url_hash.  Computed by libcrypto.
 */
#ifndef CTX_SHA256_H
#define CTX_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
#define SHA256_HEX_LEN 64

/* Room for libcrypto's SHA256_CTX; no allocation, nothing to free. */
struct sha256 {
	uint64_t ctx[16];
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *p, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN]);
/* out receives 64 hex digits and a NUL. */
void sha256_hex(const void *p, size_t n, char out[SHA256_HEX_LEN + 1]);
void sha256_tohex(const unsigned char d[SHA256_LEN], char out[SHA256_HEX_LEN + 1]);
/* Hash a file; returns 0, or -1 with errno set. */
int sha256_file(const char *path, char out[SHA256_HEX_LEN + 1]);

#endif
