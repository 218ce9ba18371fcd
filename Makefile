# docent — the two set-up commands are `make run` and `make test`.
GO      ?= go
BIN     ?= bin/docent
PKGS    ?= ./...
BENCH   ?= .

.PHONY: build run test bench lint e2e clean

build:
	$(GO) build -o $(BIN) ./cmd/docent

# The TUI on the embedded demo knowledge base (or whatever DOCENT_* / flags say).
run: build
	./$(BIN) $(ARGS)

# Every test, race detector on. PostgreSQL tests run when DOCENT_TEST_DATABASE_URL is set.
test:
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

# The real binary in tmux, driven with send-keys and read with capture-pane.
e2e: build
	DOCENT_BIN=./$(BIN) bash scripts/e2e-tmux.sh

clean:
	rm -rf bin
