# docent — the two set-up commands are `make run` and `make test`.
GO      ?= go
BIN     ?= bin/docent
PKGS    ?= ./...
BENCH   ?= .

.PHONY: build run test bench eval lint e2e fuzz load clean

build:
	$(GO) build -o $(BIN) ./cmd/docent

# The TUI on the embedded demo knowledge base (or whatever DOCENT_* / flags say).
run: build
	./$(BIN) $(ARGS)

# Every test, race detector on. PostgreSQL tests run when DOCENT_TEST_DATABASE_URL is set.
# The eval package ingests and questions 36 doc sets, PostgreSQL's and Django's built sites among
# them: under the race detector on two cores it takes about eight minutes, close to go test's
# default ten-minute limit, so the limit is set with room.
test:
	$(GO) test -race -count=1 -timeout 20m $(PKGS)

bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

# Retrieval quality and speed on msmarco-5k (docent, bleve, PostgreSQL side by side) when the
# benchmark data is beside the repository, then the decision cases. EVAL_DB is any database
# PostgreSQL full-text search may use: the index lives in a temporary table.
EVAL_DIR ?= ../shared/eval
EVAL_DB  ?= $(or $(DOCENT_DB),$(DATABASE_URL),postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)
# The reference engines live in their own binary, so docent links none of them.
EVAL_BIN ?= bin/docent-eval
eval: build
	$(GO) build -o $(EVAL_BIN) ./cmd/docent-eval
	@if [ -d "$(EVAL_DIR)/msmarco-5k" ]; then \
		./$(EVAL_BIN) retrieval --dataset "$(EVAL_DIR)/msmarco-5k" --engines docent,bleve,postgres --db "$(EVAL_DB)"; \
	else \
		echo "make eval: no benchmark data at $(EVAL_DIR)/msmarco-5k (set EVAL_DIR); skipping retrieval"; \
	fi
	@echo
	./$(BIN) eval decisions --cases testdata/acceptance.jsonl

# Every fuzz target in the repository (found with go test -list), FUZZTIME each.
FUZZTIME ?= 10s
fuzz:
	GO="$(GO)" FUZZTIME=$(FUZZTIME) PKGS="$(PKGS)" bash scripts/fuzz.sh

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

# The real binary in tmux, driven with send-keys and read with capture-pane.
e2e: build
	DOCENT_BIN=./$(BIN) bash scripts/e2e-tmux.sh

# docent serve under load (vegeta, in its own binary so docent links none of
# it): LOAD_DURATION per attack (10s), LOAD_RATE retrievals and LOAD_ASK_RATE
# streams a second at once; LOAD_ARGS="--max-p99 50ms" makes a slow p99 fail.
LOAD_BIN ?= bin/docent-load
load: build
	$(GO) build -o $(LOAD_BIN) ./cmd/docent-load
	BIN=./$(BIN) LOAD_BIN=./$(LOAD_BIN) bash scripts/load.sh

clean:
	rm -rf bin
