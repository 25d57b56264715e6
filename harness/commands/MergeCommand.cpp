//===- MergeCommand.cpp - `harness merge`: shards into one database -------===//
//
// Each shard of a campaign keeps its own findings.db. Merging copies every
// run, unions the signatures by their text (first seen the earliest, last
// seen the latest) and copies each finding once: the same case (seed,
// pipeline, target) with the same signature found by two databases (a
// shard run twice, a database merged again) is one finding. Signature
// counts are recounted from the merged findings. The output is written to
// a temporary file and renamed, so a failed merge leaves nothing behind.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/commands/Cli.h"

#include "harness/nightly/NightlyDb.h"
#include "harness/store/FindingStore.h"

#include <memory>
#include <sqlite3.h>

#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

Status exec(sqlite3 *db, const std::string &sql, const std::string &what) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return makeError(what + ": " + text);
  }
  return Status::success();
}


/// The inputs, each file once (the same file named twice, through a link
/// or another path, is merged once, with a warning); an error when one is
/// missing or is the output, which the merge would overwrite.
Result<std::vector<std::string>> distinctInputs(const MergeOptions &options) {
  std::vector<std::string> inputs;
  std::vector<fs::path> seen;
  std::error_code ec;
  for (const std::string &input : options.inputs) {
    if (!fs::is_regular_file(input, ec))
      return makeError(input + ": no such database");
    if (fs::exists(options.output, ec) &&
        fs::equivalent(input, options.output, ec))
      return makeError("-o " + options.output + " is the input " + input +
                       ": the merge would overwrite it; write the merged "
                       "database to a new file");
    bool duplicate = false;
    for (const fs::path &earlier : seen)
      duplicate |= fs::equivalent(earlier, input, ec);
    if (duplicate) {
      std::fprintf(stderr,
                   "harness merge: %s is given more than once: merged once\n",
                   input.c_str());
      continue;
    }
    seen.push_back(input);
    inputs.push_back(input);
  }
  return inputs;
}

/// The SQL of one input.
/// Merges the attached database `src` into `main` in one transaction.
/// Runs get new ids, unless the same run (started at the same time with the
/// same command) is there already, from a database merged before;
/// findings follow their run and are copied once per case and signature.
constexpr const char *kMergeAttached = R"sql(
      BEGIN;
      CREATE TEMP TABLE run_map AS
        SELECT r.id AS old,
          COALESCE((SELECT m.id FROM main.runs m WHERE m.started IS r.started
                      AND m.command IS r.command AND m.pipeline IS r.pipeline
                      AND m.seed IS r.seed LIMIT 1),
                   r.id + (SELECT COALESCE(MAX(id), 0) FROM main.runs)) AS new,
          NOT EXISTS (SELECT 1 FROM main.runs m WHERE m.started IS r.started
                      AND m.command IS r.command AND m.pipeline IS r.pipeline
                      AND m.seed IS r.seed) AS fresh
        FROM src.runs r;
      INSERT INTO main.runs(id, started, finished, command, pipeline, inputs,
                            seed, cases, findings, seconds)
        SELECT m.new, r.started, r.finished, r.command, r.pipeline, r.inputs,
               r.seed, r.cases, r.findings, r.seconds
        FROM src.runs r JOIN run_map m ON m.old = r.id WHERE m.fresh;
      INSERT INTO main.signatures(text, verdict, count, first_seen, last_seen)
        SELECT text, verdict, 0, first_seen, last_seen FROM src.signatures
        WHERE true
        ON CONFLICT(text) DO UPDATE SET
          first_seen = MIN(first_seen, excluded.first_seen),
          last_seen = MAX(last_seen, excluded.last_seen);
      INSERT INTO main.findings(run, seed, pipeline, target, verdict, stage,
                                signature, detail, case_dir, found)
        SELECT m.new, f.seed, f.pipeline, f.target, f.verdict, f.stage,
               (SELECT id FROM main.signatures WHERE text = s.text),
               f.detail, f.case_dir, f.found
        FROM src.findings f JOIN run_map m ON m.old = f.run
        JOIN src.signatures s ON s.id = f.signature
        WHERE NOT EXISTS (
          SELECT 1 FROM main.findings g JOIN main.signatures t
            ON t.id = g.signature
          WHERE g.seed = f.seed AND g.pipeline = f.pipeline AND
                g.target = f.target AND t.text = s.text);
      DROP TABLE run_map;
      COMMIT;
    )sql";

/// The attached `src`'s campaign progress (its tally: coverage, steps),
/// copied with the runs merged fresh (run ids through `run_map`, kept by
/// kMergeAttached until the merge of this input ends).
constexpr const char *kMergeProgress = R"sql(
      INSERT OR IGNORE INTO main.progress(run, resume_key, first_case,
                                          next_case, resumed_by, tally)
        SELECT m.new, p.resume_key, p.first_case, p.next_case,
               (SELECT n.new FROM run_map n WHERE n.old = p.resumed_by),
               p.tally
        FROM src.progress p JOIN run_map m ON m.old = p.run WHERE m.fresh;
    )sql";

/// The nightly tables of the shards of one night: the night's span, the
/// replay (each shard replays its part), cases per cell summed (the
/// decayed history once), and per signature the status that says most:
/// flaky, new, known or open and seen, open and missed, then fixed.
constexpr const char *kMergeNightly = R"sql(
      INSERT INTO main.nightly(id, started, finished, seed, seconds, shard,
                               previous, spent, exit_code, command)
        SELECT 1, started, finished, seed, seconds, shard, previous, spent,
               exit_code, command FROM src.nightly WHERE true
        ON CONFLICT(id) DO UPDATE SET
          started = MIN(started, excluded.started),
          finished = MAX(finished, excluded.finished),
          spent = MAX(spent, excluded.spent),
          exit_code = MAX(exit_code, excluded.exit_code), shard = 'merged';
      INSERT OR IGNORE INTO main.nightly_replay SELECT * FROM src.nightly_replay;
      INSERT INTO main.nightly_cells(cell, cases, recent)
        SELECT cell, cases, recent FROM src.nightly_cells WHERE true
        ON CONFLICT(cell) DO UPDATE SET
          recent = MIN(recent - cases, excluded.recent - excluded.cases) +
                   cases + excluded.cases,
          cases = cases + excluded.cases;
      INSERT INTO main.nightly_signatures
        SELECT * FROM src.nightly_signatures WHERE true
        ON CONFLICT(signature) DO UPDATE SET
          status = excluded.status, note = excluded.note,
          case_dir = COALESCE(NULLIF(case_dir, ''), excluded.case_dir),
          reduced_dir = COALESCE(NULLIF(reduced_dir, ''), excluded.reduced_dir),
          reduced_size = MAX(reduced_size, excluded.reduced_size),
          first_seen = MIN(first_seen, excluded.first_seen),
          last_seen = MAX(last_seen, excluded.last_seen),
          count = MAX(count, excluded.count),
          detection_seconds = CASE
            WHEN detection_seconds < 0 THEN excluded.detection_seconds
            WHEN excluded.detection_seconds < 0 THEN detection_seconds
            ELSE MIN(detection_seconds, excluded.detection_seconds) END
        WHERE (CASE excluded.status WHEN 'flaky' THEN 4 WHEN 'new' THEN 3
                 WHEN 'known' THEN 2
                 WHEN 'open' THEN 1 + (excluded.detection_seconds >= 0)
                 ELSE 0 END) >
              (CASE status WHEN 'flaky' THEN 4 WHEN 'new' THEN 3
                 WHEN 'known' THEN 2
                 WHEN 'open' THEN 1 + (detection_seconds >= 0) ELSE 0 END);
    )sql";

/// Opens the temporary merge target `dbPath` (its schema made by
/// FindingStore); null with a message on failure.
sqlite3 *openTarget(const fs::path &temporary) {
  {
    auto store = FindingStore::open(temporary.string());
    if (!store.ok()) {
      std::fprintf(stderr, "harness merge: %s\n", store.message().c_str());
      return nullptr;
    }
  }
  std::string dbPath = (temporary / "findings.db").string();
  sqlite3 *db = nullptr;
  if (sqlite3_open(dbPath.c_str(), &db) != SQLITE_OK) {
    std::fprintf(stderr, "harness merge: %s: %s\n", dbPath.c_str(),
                 db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return nullptr;
  }
  return db;
}

/// Whether the attached `src` has `table`.
bool srcHas(sqlite3 *db, const std::string &table) {
  sqlite3_stmt *stmt = nullptr;
  std::string sql = "SELECT 1 FROM src.sqlite_master WHERE type = 'table' "
                    "AND name = " + sqlQuoted(table);
  bool found = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) ==
                   SQLITE_OK &&
               sqlite3_step(stmt) == SQLITE_ROW;
  sqlite3_finalize(stmt);
  return found;
}

/// Merges the attached `src` (`input`) into `db` in one transaction.
Status mergeOne(sqlite3 *db, const std::string &input) {
  std::string sql = kMergeAttached;
  // Progress and its tally: in every database of a campaign since the tally
  // column was added (older ones: their runs merge without it).
  bool tally = false;
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT tally FROM src.progress LIMIT 0", -1,
                         &stmt, nullptr) == SQLITE_OK)
    tally = true;
  sqlite3_finalize(stmt);
  std::string tail = "      DROP TABLE run_map;\n      COMMIT;\n";
  size_t at = sql.rfind("      DROP TABLE run_map;");
  sql = sql.substr(0, at) + (tally ? kMergeProgress : "") +
        (srcHas(db, "nightly") ? std::string(nightlyTablesSql()) + kMergeNightly
                               : std::string()) +
        tail;
  return exec(db, sql, input);
}

/// Merges every input into `db` and recounts the signatures.
Status mergeAll(sqlite3 *db, const std::vector<std::string> &inputs) {
  if (Status s = exec(db, "PRAGMA journal_mode=DELETE", "journal"); !s)
    return s;
  for (const std::string &input : inputs) {
    if (Status s = exec(db, "ATTACH DATABASE " + sqlQuoted(input) + " AS src",
                        input);
        !s)
      return s;
    if (Status s = checkIntact(db, "src", input); !s) {
      (void)exec(db, "DETACH DATABASE src", input);
      return s;
    }
    if (Status s = mergeOne(db, input); !s) {
      (void)exec(db, "ROLLBACK", "rollback");
      return makeError(input + ": " + s.message() +
                       " (not a sift findings database?)");
    }
    if (Status s = exec(db, "DETACH DATABASE src", input); !s)
      return s;
  }
  return exec(db,
              "UPDATE signatures SET count = (SELECT COUNT(*) FROM findings "
              "WHERE findings.signature = signatures.id)",
              "recounting the signatures");
}

/// COUNT(*) of `table`.
int64_t countRows(sqlite3 *db, const char *table) {
  sqlite3_stmt *stmt = nullptr;
  int64_t count = 0;
  std::string sql = std::string("SELECT COUNT(*) FROM ") + table;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW)
    count = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  return count;
}

} // namespace

int runMergeCommand(const MergeOptions &options) {
  Result<std::vector<std::string>> inputs = distinctInputs(options);
  if (!inputs.ok()) {
    std::fprintf(stderr, "harness merge: %s\n", inputs.message().c_str());
    return kExitUsage;
  }
  // The output's schema is the findings store's: create it in a temporary
  // folder, merge into it, then move the file into place.
  fs::path temporary = options.output + ".merging";
  std::error_code ec;
  fs::remove_all(temporary, ec);
  sqlite3 *db = openTarget(temporary);
  if (!db)
    return kExitUsage;
  if (Status s = mergeAll(db, *inputs); !s) {
    std::fprintf(stderr, "harness merge: %s\n", s.message().c_str());
    sqlite3_close(db);
    fs::remove_all(temporary, ec);
    return kExitUsage;
  }
  int64_t runs = countRows(db, "runs"), findings = countRows(db, "findings"),
          signatures = countRows(db, "signatures");
  sqlite3_close(db);
  fs::rename(temporary / "findings.db", options.output, ec);
  if (ec) {
    std::fprintf(stderr, "harness merge: %s: %s\n", options.output.c_str(),
                 ec.message().c_str());
    fs::remove_all(temporary, ec);
    return kExitUsage;
  }
  fs::remove_all(temporary, ec);
  std::printf("merged %zu databases into %s: %lld runs, %lld findings, %lld "
              "signatures\n",
              inputs->size(), options.output.c_str(),
              static_cast<long long>(runs), static_cast<long long>(findings),
              static_cast<long long>(signatures));
  return kExitOk;
}

CommandEntry addMergeCommand(CLI::App &app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App *cmd = app.add_subcommand(
      "merge", "Join the findings databases of a campaign's shards into one, "
               "without duplicates");
  cmd->add_option("databases", options->inputs, "findings.db files")
      ->required();
  cmd->add_option("-o,--output", options->output, "The merged database")
      ->required();
  return {cmd, [options] { return runMergeCommand(*options); }};
}

} // namespace sift::harness
