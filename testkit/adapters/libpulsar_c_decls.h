/*
 * The part of libpulsar's C API that the test senders and the README's C
 * example use, declared here because the pulsar-client wheel ships
 * libpulsar's shared library without its headers. Written from the
 * prototypes of libpulsar's headers in include/pulsar/c (pulsar-client-cpp 3.x and
 * 4.x, which have not changed them); with libpulsar's headers installed,
 * include <pulsar/c/client.h> instead and leave this file out.
 *
 * It defines PULSAR_ROUTING_LIBPULSAR_DECLARED, so that
 * pulsar_routing_libpulsar.h, included after it, uses these declarations.
 */
#ifndef PULSAR_ROUTING_TESTKIT_LIBPULSAR_C_DECLS_H
#define PULSAR_ROUTING_TESTKIT_LIBPULSAR_C_DECLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An enum in libpulsar, passed as int: 0 is Ok, 1 UnknownError. */
typedef int pulsar_result;
#define pulsar_result_Ok 0
#define pulsar_result_UnknownError 1

typedef struct _pulsar_client pulsar_client_t;
typedef struct _pulsar_client_configuration pulsar_client_configuration_t;
typedef struct _pulsar_producer pulsar_producer_t;
typedef struct _pulsar_producer_configuration pulsar_producer_configuration_t;
typedef struct _pulsar_message pulsar_message_t;
typedef struct _pulsar_message_id pulsar_message_id_t;
typedef struct _pulsar_topic_metadata pulsar_topic_metadata_t;

typedef int (*pulsar_message_router)(pulsar_message_t *msg, pulsar_topic_metadata_t *topic_metadata, void *ctx);
/* pulsar_logger_level_t, an enum: 0 debug, 1 info, 2 warn, 3 error. */
typedef void (*pulsar_logger)(int level, const char *file, int line, const char *message, void *ctx);
typedef void (*pulsar_send_callback)(pulsar_result result, pulsar_message_id_t *msg_id, void *ctx);

const char *pulsar_result_str(pulsar_result result);

pulsar_client_configuration_t *pulsar_client_configuration_create(void);
void pulsar_client_configuration_free(pulsar_client_configuration_t *conf);
void pulsar_client_configuration_set_logger(pulsar_client_configuration_t *conf, pulsar_logger logger, void *ctx);
pulsar_client_t *pulsar_client_create(const char *service_url, const pulsar_client_configuration_t *conf);
pulsar_result pulsar_client_create_producer(pulsar_client_t *client, const char *topic,
                                            const pulsar_producer_configuration_t *conf,
                                            pulsar_producer_t **producer);
pulsar_result pulsar_client_close(pulsar_client_t *client);
void pulsar_client_free(pulsar_client_t *client);

pulsar_producer_configuration_t *pulsar_producer_configuration_create(void);
void pulsar_producer_configuration_free(pulsar_producer_configuration_t *conf);
void pulsar_producer_configuration_set_batching_enabled(pulsar_producer_configuration_t *conf, int enabled);
void pulsar_producer_configuration_set_block_if_queue_full(pulsar_producer_configuration_t *conf, int block);
void pulsar_producer_configuration_set_max_pending_messages(pulsar_producer_configuration_t *conf, int max);
void pulsar_producer_configuration_set_max_pending_messages_across_partitions(pulsar_producer_configuration_t *conf,
                                                                              int max);
void pulsar_producer_configuration_set_message_router(pulsar_producer_configuration_t *conf,
                                                      pulsar_message_router router, void *ctx);

void pulsar_producer_send_async(pulsar_producer_t *producer, pulsar_message_t *msg, pulsar_send_callback callback,
                                void *ctx);
pulsar_result pulsar_producer_send(pulsar_producer_t *producer, pulsar_message_t *msg);
pulsar_result pulsar_producer_flush(pulsar_producer_t *producer);
pulsar_result pulsar_producer_close(pulsar_producer_t *producer);
void pulsar_producer_free(pulsar_producer_t *producer);

pulsar_message_t *pulsar_message_create(void);
void pulsar_message_free(pulsar_message_t *message);
void pulsar_message_set_content(pulsar_message_t *message, const void *data, size_t size);
void pulsar_message_set_partition_key(pulsar_message_t *message, const char *partition_key);
const char *pulsar_message_get_partitionKey(pulsar_message_t *message);
int pulsar_message_has_partition_key(pulsar_message_t *message);

int pulsar_topic_metadata_get_num_partitions(pulsar_topic_metadata_t *topic_metadata);

#ifdef __cplusplus
}
#endif

#define PULSAR_ROUTING_LIBPULSAR_DECLARED 1

#endif
