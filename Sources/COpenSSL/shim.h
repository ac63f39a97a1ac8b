#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

// Macros in OpenSSL's headers, which Swift cannot call.
static inline long moim_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline void moim_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

// A public key alone, with its group: what EVP_PKEY_fromdata is asked to make of a peer's point.
static const int moim_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
