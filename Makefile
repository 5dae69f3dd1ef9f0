# Atelier: build, demo, test, install. `make help` lists the targets.
SWIFT   ?= swift
PREFIX  ?= /usr/local
TOOLS   := atl-import atl-query atl-export atl-classify atl-send atl-recv atl-reconstruct
DEMO    := $(CURDIR)/.atelier-demo
DEBUG_BIN = $(CURDIR)/.build/debug
# The tests' Python reference readers live here, not in the machine's Python.
TEST_PYTHON := $(CURDIR)/.build/test-python

.PHONY: help deps build release demo test docs install uninstall bench bench-laundry bench-suggest bench-transfer bench-care bench-reconstruct train-care fuzz clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 12

deps: ## install missing system packages (Debian; uses apt-get)
	@scripts/install-deps.sh

build: deps ## debug build of every tool
	$(SWIFT) build

release: deps ## optimised build (what `make install` and the benchmarks use)
	$(SWIFT) build -c release

demo: build ## sample wardrobe in ./.atelier-demo and a tour of pipelines
	@rm -rf $(DEMO) && mkdir -p $(DEMO)
	@DEMO=$(DEMO) BIN=$(DEBUG_BIN) scripts/demo.sh

test: deps ## build and run every test (unit, end-to-end, docs, examples); Python references go into .build/test-python
	@scripts/install-test-deps.sh $(TEST_PYTHON)
	$(SWIFT) build --build-tests
	PATH="$(TEST_PYTHON)/bin:$$PATH" $(SWIFT) test --skip-build

docs: build ## regenerate man pages and shell completions from the flag definitions
	python3 scripts/gen-docs.py $(DEBUG_BIN) .

install: release ## install tools, man pages and completions under PREFIX
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	for t in $(TOOLS); do \
	  install -m 755 .build/release/$$t $(DESTDIR)$(PREFIX)/bin/$$t; \
	  install -m 644 man/$$t.1 $(DESTDIR)$(PREFIX)/share/man/man1/$$t.1; \
	  install -m 644 completions/$$t.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; \
	  install -m 644 completions/_$$t $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$t; \
	  install -m 644 completions/$$t.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$t.fish; \
	done
	install -m 644 man/atelier.7 $(DESTDIR)$(PREFIX)/share/man/man7/atelier.7
	install -d $(DESTDIR)$(PREFIX)/share/atelier/models
	install -m 644 Sources/AtelierCareLabels/Models/*.atlnn $(DESTDIR)$(PREFIX)/share/atelier/models/

uninstall: ## remove what `make install` put under PREFIX
	for t in $(TOOLS); do rm -f $(DESTDIR)$(PREFIX)/bin/$$t $(DESTDIR)$(PREFIX)/share/man/man1/$$t.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$t \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$t.fish; done
	rm -f $(DESTDIR)$(PREFIX)/share/man/man7/atelier.7
	rm -rf $(DESTDIR)$(PREFIX)/share/atelier/models

bench: release ## catalog benchmarks against sqlite-utils, jq and sqlite3 (see benchmarks/)
	ATL_BIN=$(CURDIR)/.build/release benchmarks/catalog.sh

bench-laundry: release ## laundry planning on 100,000 garments, checked against an independent Python planner
	ATL_BIN=$(CURDIR)/.build/release benchmarks/laundry.sh

bench-suggest: release ## outfit suggestions: 90 simulated days on four wardrobes against two baselines (see benchmarks/)
	ATL_BIN=$(CURDIR)/.build/release benchmarks/suggest.sh

bench-care: release ## care-label reading: accuracy and speed on two test sets drawn apart from training, one from the standards alone (see benchmarks/)
	ATL_BIN=$(CURDIR)/.build/release benchmarks/care.sh

train-care: ## retrain the care-symbol networks from rendered labels (installs numpy, Pillow, JAX and fonts from PyPI; about 5.2 hours on 2 cores)
	python3 -m pip install --quiet -r training/care/requirements.txt
	python3 training/care/train.py

FUZZ_SECONDS ?= 300
bench-reconstruct: release ## atl-reconstruct vs pycolmap on synthetic captures: accuracy, time per stage, memory (see benchmarks/)
	ATL_BIN=$(CURDIR)/.build/release benchmarks/reconstruct.sh

bench-transfer: release ## transfer benchmark: atl-send/atl-recv vs magic-wormhole and socat over loopback (see benchmarks/)
	ATL_BIN=$(CURDIR)/.build/release benchmarks/transfer.sh

fuzz: ## libFuzzer on the JSON, CSV, EXIF, image, transfer-frame and DNS parsers and the backup reader, FUZZ_SECONDS (default 300) each; seeds in fuzz/corpus
	fuzz/run.sh json $(FUZZ_SECONDS) && fuzz/run.sh csv $(FUZZ_SECONDS) && fuzz/run.sh exif $(FUZZ_SECONDS) && fuzz/run.sh image $(FUZZ_SECONDS) && fuzz/run.sh transfer $(FUZZ_SECONDS) && fuzz/run.sh dns $(FUZZ_SECONDS) && fuzz/run.sh backup $(FUZZ_SECONDS)

clean: ## remove build products and the demo catalog
	rm -rf .build $(DEMO)
