#ifndef MTT_COPENSSL_SHIM_H
#define MTT_COPENSSL_SHIM_H

#if __has_include(<openssl/ssl.h>)
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#else
#error "mtt needs the OpenSSL headers: install libssl-dev (sudo apt-get install libssl-dev)"
#endif

// OpenSSL spells these as macros over SSL_ctrl and BIO_ctrl, which Swift does not import.

static inline int mtt_ssl_set_server_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/// TLS 1.2 or later; a server that closes without close_notify ends the stream rather than failing
/// it (many HTTP servers do); a write retried after WANT_READ may come from another address.
static inline void mtt_ssl_ctx_configure_client(SSL_CTX *context) {
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
    SSL_CTX_set_mode(context, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// A memory BIO that reports "no data yet" when empty, rather than the end of the stream.
static inline void mtt_bio_set_retry_when_empty(BIO *bio) {
    BIO_set_mem_eof_return(bio, -1);
}

/// A memory BIO whose stream has ended: reading it when empty is the end of the stream.
static inline void mtt_bio_set_ended(BIO *bio) {
    BIO_set_mem_eof_return(bio, 0);
}

#endif
