// Baseline for `make bench`: raw JetStream async publish and pull consume with libnats, no Muster.
// Usage: raw_js <nats-url> <count> <payload-bytes> [headers]
// Prints one JSON line: {"publish_per_sec": …, "consume_per_sec": …}; with `headers`, also
// "publish_headers_per_sec": async publish again, each message with an append's headers.
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define CHECK(call) do { natsStatus _s = (call); if (_s != NATS_OK) { \
    fprintf(stderr, "%s failed: %s (%s)\n", #call, natsStatus_GetText(_s), nats_GetLastError(NULL)); exit(1); } } while (0)

// A file-backed stream NAME over SUBJECT, made anew.
static void addStream(jsCtx *js, const char *name, const char *subject) {
    jsErrCode jerr = 0;
    jsStreamConfig cfg;
    jsStreamConfig_Init(&cfg);
    cfg.Name = name;
    const char *subjects[] = {subject};
    cfg.Subjects = subjects;
    cfg.SubjectsLen = 1;
    cfg.Storage = js_FileStorage;
    js_DeleteStream(js, name, NULL, NULL);
    jsStreamInfo *si = NULL;
    CHECK(js_AddStream(&si, js, &cfg, NULL, &jerr));
    jsStreamInfo_Destroy(si);
}

// Async publish again, each message carrying what a Muster append carries: a unique Nats-Msg-Id
// (the server keeps it for its duplicate window), Nats-Expected-Stream and a 32-byte event id
// header. Not a target's baseline: it tells the server's share of an append from the client's.
static double publishWithHeaders(jsCtx *js, int count, const char *payload, int size) {
    addStream(js, "RAWH", "rawh.>");
    char subject[64], msgID[40];
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.ExpectStream = "RAWH";
    po.MsgId = msgID;
    double start = now();
    for (int i = 0; i < count; i++) {
        snprintf(subject, sizeof subject, "rawh.bench.s%d.recorded.v1", i % 1000);
        snprintf(msgID, sizeof msgID, "evt_%012x%016x", (unsigned) (start * 1000), i);
        natsMsg *msg = NULL;
        CHECK(natsMsg_Create(&msg, subject, NULL, payload, size));
        CHECK(natsMsgHeader_Set(msg, "Muster-Event-Id", msgID));
        CHECK(js_PublishMsgAsync(js, &msg, &po));
    }
    jsPubOptions_Init(&po);
    po.MaxWait = 60000;
    CHECK(js_PublishAsyncComplete(js, &po));
    double seconds = now() - start;
    js_DeleteStream(js, "RAWH", NULL, NULL);
    return seconds;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: raw_js <url> <count> <payload-bytes> [headers]\n"); return 2; }
    int withHeaders = argc > 4 && strcmp(argv[4], "headers") == 0;
    const char *url = argv[1];
    int count = atoi(argv[2]);
    int size = atoi(argv[3]);
    char *payload = malloc(size);
    memset(payload, 'x', size);

    natsConnection *nc = NULL;
    jsCtx *js = NULL;
    jsOptions jo;
    jsErrCode jerr = 0;
    CHECK(natsConnection_ConnectTo(&nc, url));
    CHECK(jsOptions_Init(&jo));
    jo.PublishAsync.MaxPending = 4096; // the same bound Muster's publisher uses
    CHECK(natsConnection_JetStream(&js, nc, &jo));

    addStream(js, "RAW", "raw.>");

    // Publish: pipelined async publishes, each to its own aggregate-like subject, then wait for every ack.
    char subject[64];
    double start = now();
    for (int i = 0; i < count; i++) {
        snprintf(subject, sizeof subject, "raw.bench.s%d.recorded.v1", i % 1000);
        CHECK(js_PublishAsync(js, subject, payload, size, NULL));
    }
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 60000;
    CHECK(js_PublishAsyncComplete(js, &po));
    double publishSeconds = now() - start;

    // Consume: a pull consumer without acks, fetched in batches, as a projection replay reads.
    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Config.AckPolicy = js_AckNone;
    so.Config.DeliverPolicy = js_DeliverAll;
    natsSubscription *sub = NULL;
    CHECK(js_PullSubscribe(&sub, js, "raw.>", "rawreader", NULL, &so, &jerr));
    int received = 0;
    size_t bytes = 0;
    start = now();
    while (received < count) {
        natsMsgList list = {0};
        natsStatus s = natsSubscription_Fetch(&list, sub, 1024, 5000, &jerr);
        if (s != NATS_OK && s != NATS_TIMEOUT) { fprintf(stderr, "fetch: %s\n", natsStatus_GetText(s)); exit(1); }
        for (int i = 0; i < list.Count; i++) bytes += natsMsg_GetDataLength(list.Msgs[i]);
        received += list.Count;
        natsMsgList_Destroy(&list);
    }
    double consumeSeconds = now() - start;
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    js_DeleteStream(js, "RAW", NULL, NULL);

    double headersSeconds = withHeaders ? publishWithHeaders(js, count, payload, size) : 0;

    printf("{\"count\": %d, \"payload_bytes\": %d, \"publish_per_sec\": %.0f, \"consume_per_sec\": %.0f, \"consumed_bytes\": %zu",
           count, size, count / publishSeconds, count / consumeSeconds, bytes);
    if (withHeaders) printf(", \"publish_headers_per_sec\": %.0f", count / headersSeconds);
    printf("}\n");

    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    nats_Close();
    free(payload);
    return 0;
}
