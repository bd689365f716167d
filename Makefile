# `make` builds ./castella for this machine's CPU (target-cpu=native), as
# OpenBench calls it: `make -j EXE=path/to/castella-dev [EVALFILE=net.nnue]`
# (EVALFILE embeds that network instead of eval/nets/castella.nnue).
# `make release` builds one binary per x86-64 level into dist/, each of
# which refuses to start on a CPU without what it was built for.
# `make tools` builds datagen, data and nnue-train for this CPU.
# (`cargo build --release` builds a binary that runs on any x86-64.)

EXE ?= castella
EVALFILE ?=
CARGO ?= cargo
NATIVE = RUSTFLAGS="-C target-cpu=native" EVALFILE='$(abspath $(EVALFILE))'
LEVELS = x86-64 x86-64-v2 x86-64-v3 x86-64-v4
VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)

.PHONY: all tools release clean
all:
	$(NATIVE) $(CARGO) build --release -p castella --target-dir target/native
	cp target/native/release/castella $(EXE)

tools:
	$(NATIVE) $(CARGO) build --release -p castella-train --target-dir target/native
	@echo "built target/native/release/{datagen,data,nnue-train}"

release:
	mkdir -p dist
	for level in $(LEVELS); do \
	  CASTELLA_RELEASE=1 RUSTFLAGS="-C target-cpu=$$level" EVALFILE='$(abspath $(EVALFILE))' \
	    $(CARGO) build --release -p castella --target-dir target/$$level || exit 1; \
	  cp target/$$level/release/castella dist/castella-$(VERSION)-$$level; \
	done
	@if rustup target list --installed 2>/dev/null | grep -q aarch64-unknown-linux-gnu; then \
	  CASTELLA_RELEASE=1 $(CARGO) build --release -p castella --target aarch64-unknown-linux-gnu && \
	  cp target/aarch64-unknown-linux-gnu/release/castella dist/castella-$(VERSION)-aarch64; \
	else echo "aarch64: skipped (rustup target aarch64-unknown-linux-gnu is not installed)"; fi
	ls -l dist

clean:
	$(CARGO) clean
