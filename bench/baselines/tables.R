# Side-by-side runs of the tabular protection tools statistical offices use
# (sdcTable, GaussSuppression) on one microdata file, for `sdcopt bench
# table-baselines`. One tool per run, so that the caller can put a time limit
# on each run (a solver inside a tool cannot be interrupted from R).
#
# Usage:
#   Rscript tables.R --data FILE --dims NAME:FILE.hrc,... --tool TOOL --out PREFIX
#                    (--maxN N | --p P --response COLUMN --respondent COLUMN)
#                    [--time-limit SECONDS]
#
# TOOL is one of sdcTable:SIMPLEHEURISTIC, sdcTable:GAUSS, sdcTable:HITAS,
# sdcTable:OPT, GaussSuppression. The table spans the dimensions (every code
# of every hierarchy, totals included). With --maxN it is the frequency table
# of the records and the primary rule the minimum frequency rule "cells with
# 1 <= freq <= maxN" (sdcopt's freq:N is maxN = N - 1). With --p it is the
# magnitude table of the response summed per cell, each respondent one
# contributor, and the primary rule the p% rule "X - x1 - x2 < p/100 x1"
# (sdcopt's p:P; sdcTable primarySuppression type "p", GaussSuppression
# SuppressDominantCells pPercent). Empty cells are never primary (sdcTable
# allowZeros = FALSE, GaussSuppression protectZeros = FALSE), as sdcopt's
# default zero policy. Every other parameter is the tool's default.
#
# Hierarchy files are tau-ARGUS .hrc files: one code a line in pre-order, the
# depth below the implicit total "Total" given by leading '@'s.
#
# Writes (each atomically, temp file then rename):
#   PREFIX.csv       the published pattern as an sdcopt table file: the dimension
#                    codes, value, freq, status (primary, secondary, safe)
#   PREFIX.info.csv  (written with the pattern, then again after the check)
#                    one row: tool, method, version, status, seconds (build +
#                    primary + secondary), protect_seconds (secondary alone where
#                    the tool separates it), check, check_seconds, check_cells,
#                    check_failures (the tool's own interval check: sdcTable's
#                    attack(), GaussSuppression's ComputeIntervals()), message
#   PREFIX.<dim>.hrc the hierarchy files the pattern is coded in
# Exit status 0 on success, 1 on a tool error (the info file says which).

Sys.umask("077") # the patterns hold the unpublished values

local({
  lib <- Sys.getenv("RLIB")
  if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
})

args <- commandArgs(trailingOnly = TRUE)
opt <- list(data = NULL, dims = NULL, tool = NULL, maxN = NULL, p = NULL, response = NULL, respondent = NULL,
            out = NULL, `time-limit` = "0")
i <- 1
while (i <= length(args)) {
  key <- sub("^--", "", args[i])
  if (!startsWith(args[i], "--") || !(key %in% names(opt)) || i == length(args)) {
    stop("usage: tables.R --data FILE --dims NAME:FILE.hrc,... --tool TOOL --out PREFIX ",
         "(--maxN N | --p P --response COLUMN --respondent COLUMN) [--time-limit S]; bad argument: ", args[i])
  }
  opt[[key]] <- args[i + 1]
  i <- i + 2
}
for (k in c("data", "dims", "tool", "out")) {
  if (is.null(opt[[k]])) stop("tables.R: --", k, " is required")
}
magnitude <- !is.null(opt$p)
if (magnitude == !is.null(opt$maxN)) stop("tables.R: give one of --maxN and --p")
if (magnitude) {
  pPercent <- as.integer(opt$p)
  if (is.na(pPercent) || pPercent < 1 || pPercent >= 100) stop("tables.R: --p must be an integer in [1, 100), not ", opt$p)
  if (is.null(opt$response) || is.null(opt$respondent)) stop("tables.R: --p needs --response and --respondent")
} else {
  maxN <- as.integer(opt$maxN)
  if (is.na(maxN) || maxN < 0) stop("tables.R: --maxN must be a non-negative integer, not ", opt$maxN)
}
timeLimit <- as.numeric(opt[["time-limit"]])

# write_atomic writes with fun(path) into a temporary file beside path, then
# renames it into place.
write_atomic <- function(path, fun) {
  tmp <- paste0(path, ".tmp", Sys.getpid())
  ok <- FALSE
  on.exit(if (!ok) unlink(tmp), add = TRUE)
  fun(tmp)
  if (!file.rename(tmp, path)) stop("cannot rename ", tmp, " to ", path)
  ok <- TRUE
}

# read_hrc reads a .hrc file into sdcTable's dimList form: a data frame of
# levels ("@" the total, "@@" its children, ...) and codes, in pre-order.
read_hrc <- function(path, root = "Total") {
  lines <- readLines(path, warn = FALSE)
  lines <- sub("\r$", "", lines)
  lines <- lines[nzchar(trimws(lines))]
  depth <- nchar(lines) - nchar(sub("^@*", "", lines))
  codes <- trimws(sub("^@*", "", lines))
  data.frame(levels = c("@", strrep("@", depth + 2)), codes = c(root, codes), stringsAsFactors = FALSE)
}

dimspec <- strsplit(strsplit(opt$dims, ",", fixed = TRUE)[[1]], ":", fixed = TRUE)
dimNames <- vapply(dimspec, function(d) d[1], "")
dimList <- lapply(dimspec, function(d) {
  if (length(d) != 2) stop("tables.R: --dims wants NAME:FILE.hrc, got ", paste(d, collapse = ":"))
  read_hrc(d[2])
})
names(dimList) <- dimNames

micro <- read.csv(opt$data, colClasses = "character", check.names = FALSE)
for (d in dimNames) {
  if (!d %in% names(micro)) stop("tables.R: ", opt$data, ": no column ", d)
}
if (magnitude) {
  for (v in c(opt$response, opt$respondent)) {
    if (!v %in% names(micro)) stop("tables.R: ", opt$data, ": no column ", v)
  }
  micro <- micro[, c(dimNames, opt$respondent, opt$response), drop = FALSE]
  micro[[opt$response]] <- as.numeric(micro[[opt$response]])
  if (anyNA(micro[[opt$response]])) stop("tables.R: ", opt$data, ": ", opt$response, " is not numeric everywhere")
} else {
  micro <- micro[, dimNames, drop = FALSE]
}

tool <- strsplit(opt$tool, ":", fixed = TRUE)[[1]]
pkg <- tool[1]
method <- if (length(tool) > 1) tool[2] else ""

info <- list(tool = opt$tool, method = method, version = "", status = "ok", seconds = NA, protect_seconds = NA,
             check = "", check_seconds = NA, check_cells = NA, check_failures = NA, message = "")

write_info <- function() {
  write_atomic(paste0(opt$out, ".info.csv"), function(p) {
    write.csv(as.data.frame(info, stringsAsFactors = FALSE), p, row.names = FALSE)
  })
}

write_pattern <- function(codes, value, freq, status) {
  tab <- as.data.frame(codes, stringsAsFactors = FALSE)
  names(tab) <- dimNames
  tab$value <- value
  tab$freq <- freq
  tab$status <- status
  write_atomic(paste0(opt$out, ".csv"), function(p) write.csv(tab, p, row.names = FALSE))
  for (d in dimNames) {
    dl <- dimList[[d]][-1, ]
    write_atomic(paste0(opt$out, ".", d, ".hrc"), function(p) {
      writeLines(paste0(strrep("@", nchar(dl$levels) - 2), dl$codes), p)
    })
  }
}

elapsed <- function(t0) unname((proc.time() - t0)["elapsed"])

run_sdcTable <- function() {
  suppressPackageStartupMessages(library(sdcTable))
  info$version <<- as.character(packageVersion("sdcTable"))
  t0 <- proc.time()
  if (magnitude) {
    prob <- makeProblem(data = micro, dimList = dimList, numVarInd = opt$response)
    prob <- primarySuppression(prob, type = "p", p = pPercent, numVarName = opt$response)
  } else {
    prob <- makeProblem(data = micro, dimList = dimList)
    prob <- primarySuppression(prob, type = "freq", maxN = maxN, allowZeros = FALSE)
  }
  t1 <- proc.time()
  extra <- list()
  if (method %in% c("HITAS", "OPT") && timeLimit > 0) {
    extra$timeLimit <- timeLimit / 60 # minutes
  }
  prob <- do.call(protectTable, c(list(object = prob, method = method), extra))
  info$protect_seconds <<- elapsed(t1)
  info$seconds <<- elapsed(t0)
  fd <- as.data.frame(getInfo(prob, type = "finalData"))
  status <- c(u = "primary", x = "secondary", s = "safe", z = "safe", w = "secondary")[fd$sdcStatus]
  if (anyNA(status)) stop("unknown sdcStatus ", paste(unique(fd$sdcStatus[is.na(status)]), collapse = ","))
  value <- if (magnitude) fd[[opt$response]] else fd$Freq
  write_pattern(fd[, dimNames, drop = FALSE], value, fd$Freq, unname(status))
  # sdcTable's own check: the attacker's LP bounds of every primary cell
  # (attack() bounds the cells' frequencies, also in a magnitude table).
  info$check <<- if (magnitude) "attack (on freq)" else "attack"
  write_info() # the pattern stands even if the check is stopped
  t2 <- proc.time()
  att <- attack(prob)
  info$check_seconds <<- elapsed(t2)
  info$check_cells <<- nrow(att)
  info$check_failures <<- sum(!att$protected)
}

run_GaussSuppression <- function() {
  suppressPackageStartupMessages(library(GaussSuppression))
  info$version <<- paste0(packageVersion("GaussSuppression"), " (SSBtools ", packageVersion("SSBtools"), ")")
  t0 <- proc.time()
  # Without freqVar the records are aggregated (preAggregate) into a count "freq__".
  if (magnitude) {
    res <- SuppressDominantCells(micro, pPercent = pPercent, numVar = opt$response, dimVar = dimNames,
                                 hierarchies = dimList, contributorVar = opt$respondent, freqVarNew = "freq__",
                                 output = "publish_x", printInc = FALSE)
  } else {
    res <- GaussSuppressionFromData(micro, dimVar = dimNames, freqVarNew = "freq__", hierarchies = dimList,
                                    maxN = maxN, protectZeros = FALSE, output = "publish_x", printInc = FALSE)
  }
  info$seconds <<- elapsed(t0)
  pub <- res$publish
  status <- ifelse(pub$primary, "primary", ifelse(pub$suppressed, "secondary", "safe"))
  value <- if (magnitude) pub[[opt$response]] else pub$freq__
  write_pattern(pub[, dimNames, drop = FALSE], value, pub$freq__, status)
  # GaussSuppression's own check: the LP intervals of the primary cells.
  info$check <<- "ComputeIntervals(Rglpk)"
  write_info() # the pattern stands even if the check is stopped
  t2 <- proc.time()
  iv <- ComputeIntervals(res$x, z = value, primary = pub$primary, suppressed = pub$suppressed,
                         lpPackage = "Rglpk")
  info$check_seconds <<- elapsed(t2)
  p <- which(pub$primary)
  info$check_cells <<- length(p)
  info$check_failures <<- sum(abs(iv[p, "up"] - iv[p, "lo"]) <= 1e-9 * pmax(1, abs(value[p])))
}

t_start <- proc.time()
ok <- tryCatch({
  if (pkg == "sdcTable") {
    if (!method %in% c("SIMPLEHEURISTIC", "SIMPLEHEURISTIC_OLD", "GAUSS", "HITAS", "OPT", "HYPERCUBE")) {
      stop("unknown sdcTable method ", method)
    }
    run_sdcTable()
  } else if (pkg == "GaussSuppression" && method == "") {
    run_GaussSuppression()
  } else {
    stop("unknown tool ", opt$tool, " (want sdcTable:METHOD or GaussSuppression)")
  }
  TRUE
}, error = function(e) {
  info$status <<- "error"
  info$message <<- gsub("[\r\n]+", " ", conditionMessage(e))
  # the time to the failure, loading the package included
  if (is.na(info$seconds)) info$seconds <<- elapsed(t_start)
  FALSE
})
write_info()
if (!ok) {
  message("tables.R: ", opt$tool, ": ", info$message)
  quit(status = 1)
}
