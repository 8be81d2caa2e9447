# sdcopt: `make demo` runs the main job, `make test` runs every test.
# Both install what they need first (make deps).

GO      ?= go
TAGS    ?= lpsolve coin
BIN     := bin/sdcopt
GOFLAGS_TAGS := -tags "$(TAGS)"

.PHONY: all deps build pipeline demo demo-pipeline test test-short fuzz bench figures vet clean

all: build

deps:
	@./scripts/deps.sh

build: deps
	@$(GO) build $(GOFLAGS_TAGS) -o $(BIN) ./cmd/sdcopt

# The Beam pipelines: a separate binary (Beam's dependencies; README.md,
# "Running past one machine").
pipeline: deps
	@$(GO) build $(GOFLAGS_TAGS) -o bin/sdcopt-pipeline ./cmd/sdcopt-pipeline

demo: build pipeline
	@./$(BIN) demo
	@./scripts/demo-pipeline.sh

# The Beam pipelines on small data (a few seconds): scripts/demo-pipeline.sh.
demo-pipeline: build pipeline
	@./scripts/demo-pipeline.sh

# Every engine must be available for the full suite; then every fuzz
# target runs FUZZRUNS inputs (a count, so that the run is bounded without a race).
FUZZRUNS ?= 2000

test: deps
	SDCOPT_REQUIRE_ENGINES=highs,lpsolve,clp,cbc SDCOPT_REQUIRE_BROWSER=1 $(GO) test $(GOFLAGS_TAGS) -timeout 30m ./...
	@TAGS="$(TAGS)" FUZZRUNS=$(FUZZRUNS) ./scripts/fuzz.sh

fuzz: deps
	@TAGS="$(TAGS)" FUZZRUNS=$(FUZZRUNS) ./scripts/fuzz.sh

test-short: deps
	$(GO) test $(GOFLAGS_TAGS) -short ./...

bench: deps
	$(GO) test $(GOFLAGS_TAGS) -run '^$$' -bench . -benchtime 1x -timeout 90m ./...

# The figures of bench/README.md, drawn by the bench commands (gonum/plot,
# house style in bench/figstyle.go), with the reports they come from beside
# them. About 45 minutes on 2 cores (icsm's Table 4 alone about 12).
FIGURES := bench/figures

figures: build
	@mkdir -p $(FIGURES)
	./$(BIN) bench colgen --data census --n 30,40,50,100 --plot $(FIGURES) --out $(FIGURES)/colgen-census.txt --quiet
	./$(BIN) bench colgen --data tarragona --n 30,40,50,100 --plot $(FIGURES) --out $(FIGURES)/colgen-tarragona.txt --quiet
	./$(BIN) bench mdav --plot $(FIGURES) --out $(FIGURES)/mdav.txt --quiet
	./$(BIN) bench icsm --data tarragona,census,eia --plot $(FIGURES) --out $(FIGURES)/icsm.txt --quiet
	./$(BIN) bench microagg-tradeoff --k 2,3,4,5,7,10 --bound-time 10 --plot $(FIGURES) --out $(FIGURES)/microagg-tradeoff.txt --quiet
	./$(BIN) bench kanon --partition 1000 --budget 0 --mip-n '' --scale-n '' --sweep-partition 250,500,1000,2000,4000 --plot $(FIGURES) --out $(FIGURES)/kanon.txt --quiet
	./$(BIN) bench scaling --plot $(FIGURES) --out $(FIGURES)/scaling.txt --quiet
	./$(BIN) bench dobra --tables table3,table5 --plot $(FIGURES) --out $(FIGURES)/dobra.txt --quiet
	./$(BIN) bench microagg-full --data census --k 3 --time-limit 60 --plot $(FIGURES) --out $(FIGURES)/microagg-full-census-k3.txt --quiet
	./$(BIN) bench table-protect --cases 2way-1300:optimal,3way-5000:optimal --time-limit 300 --plot $(FIGURES) --out $(FIGURES)/suppress-trace.txt --quiet

vet: deps
	$(GO) vet $(GOFLAGS_TAGS) ./...
	CGO_ENABLED=0 $(GO) build ./...

clean:
	rm -rf bin
