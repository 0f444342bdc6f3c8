/*
 * sha256.c - SHA-256 (FIPS 180-4) from libcrypto.  OpenSSL's SHA256_*
 * functions use the CPU's SHA extensions where present; on this project's
 * machines they hash a 4 KB page several times faster than the portable
 * C implementation this file held before.  The low-level interface is
 * deprecated in OpenSSL 3 in favour of EVP, but it needs no allocation per
 * context (a context on the stack cannot leak) and is still exported.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/sha.h>

#include "sha256.h"

static_assert(sizeof(SHA256_CTX) <= sizeof(((struct sha256 *)0)->ctx),
    "struct sha256 too small for SHA256_CTX");

void
sha256_init(struct sha256 *c)
{
	SHA256_Init((SHA256_CTX *)(void *)c->ctx);
}

void
sha256_update(struct sha256 *c, const void *p, size_t n)
{
	SHA256_Update((SHA256_CTX *)(void *)c->ctx, p, n);
}

void
sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN])
{
	SHA256_Final(out, (SHA256_CTX *)(void *)c->ctx);
}

void
sha256_tohex(const unsigned char d[SHA256_LEN], char out[SHA256_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[SHA256_HEX_LEN] = '\0';
}

void
sha256_hex(const void *p, size_t n, char out[SHA256_HEX_LEN + 1])
{
	unsigned char d[SHA256_LEN];
	struct sha256 c;

	/*
	 * Not OpenSSL 3's one-shot SHA256(), which fetches an EVP digest:
	 * that allocates, and when the allocation fails it returns NULL
	 * without writing d, so a hash of stack garbage went on.
	 */
	sha256_init(&c);
	sha256_update(&c, p, n);
	sha256_final(&c, d);
	sha256_tohex(d, out);
}

int
sha256_file(const char *path, char out[SHA256_HEX_LEN + 1])
{
	struct sha256 c;
	unsigned char d[SHA256_LEN], buf[65536];
	size_t n;
	FILE *fp = fopen(path, "rb");
	int e;

	if (fp == NULL)
		return -1;
	sha256_init(&c);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sha256_update(&c, buf, n);
	if (ferror(fp)) {
		e = errno;
		fclose(fp);
		errno = e;
		return -1;
	}
	fclose(fp);
	sha256_final(&c, d);
	sha256_tohex(d, out);
	return 0;
}
