// Baseline for `make bench`: raw JetStream async publish and pull consume with libnats, no Muster.
// Usage: raw_js <nats-url> <count> <payload-bytes>
// Prints one JSON line: {"publish_per_sec": …, "consume_per_sec": …}
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

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: raw_js <url> <count> <payload-bytes>\n"); return 2; }
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

    jsStreamConfig cfg;
    jsStreamConfig_Init(&cfg);
    cfg.Name = "RAW";
    const char *subjects[] = {"raw.>"};
    cfg.Subjects = subjects;
    cfg.SubjectsLen = 1;
    cfg.Storage = js_FileStorage;
    js_DeleteStream(js, "RAW", NULL, NULL);
    jsStreamInfo *si = NULL;
    CHECK(js_AddStream(&si, js, &cfg, NULL, &jerr));
    jsStreamInfo_Destroy(si);

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
    printf("{\"count\": %d, \"payload_bytes\": %d, \"publish_per_sec\": %.0f, \"consume_per_sec\": %.0f, \"consumed_bytes\": %zu}\n",
           count, size, count / publishSeconds, count / consumeSeconds, bytes);

    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    js_DeleteStream(js, "RAW", NULL, NULL);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    nats_Close();
    free(payload);
    return 0;
}
