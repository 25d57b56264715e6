//===- tools/sift-run/ResultsCsv.cpp - sift-run's results, row by row -----===//
//
// See ResultsCsv.h.
//
//===----------------------------------------------------------------------===//

#include "tools/sift-run/ResultsCsv.h"

#include "support/Text.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <cmath>
#include <iterator>

using namespace sift;
using namespace sift::tools;

std::string sift::tools::timeField(double ms) {
  if (std::isnan(ms))
    return "";
  char text[32];
  std::snprintf(text, sizeof(text), "%.4f", ms);
  return text;
}

bool sift::tools::parseTimeField(const std::string &field, double &ms) {
  if (field.empty()) {
    ms = kNotMeasured;
    return true;
  }
  char *end = nullptr;
  ms = std::strtod(field.c_str(), &end);
  return *end == '\0' && !std::isnan(ms);
}

namespace {

constexpr const char *kHeader = "case,pipeline,target,device,verdict,"
                                "kernel_ms,module_load_ms,file,detail";

std::string rowText(const Row &row, const std::string &device) {
  std::string numbers =
      timeField(row.kernelMs) + "," + timeField(row.loadMs) + ",";
  return csvField(row.name) + ',' + csvField(row.pipeline) + ',' +
         csvField(row.target) + ',' + csvField(device) + ',' +
         csvField(row.verdict) + ',' + numbers + csvField(row.file) + ',' +
         csvField(escapeField(row.detail)) + '\n';
}

} // namespace

std::vector<std::vector<std::string>> tools::parseCsv(const std::string &text,
                                                      bool &torn) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, started = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    started = true;
    if (quoted) {
      if (c != '"')
        field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"')
        field += text[++i];
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      if (!field.empty() && field.back() == '\r')
        field.pop_back();
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
      started = false;
    } else {
      field += c;
    }
  }
  torn = started;
  return records;
}

ResultsCsv::ResultsCsv(std::string path, std::string device)
    : path_(std::move(path)), partial_(path_ + ".partial"),
      device_(std::move(device)) {}

ResultsCsv::~ResultsCsv() {
  if (file_)
    std::fclose(file_);
}

Result<std::unique_ptr<ResultsCsv>>
ResultsCsv::open(const std::string &path, const std::string &device,
                 bool resume) {
  std::unique_ptr<ResultsCsv> csv(new ResultsCsv(path, device));
  std::string text = std::string(kHeader) + "\n";
  if (resume) {
    std::ifstream in(csv->partial_, std::ios::binary);
    if (in) {
      csv->resumed_ = true;
      std::string old((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
      std::vector<std::vector<std::string>> records =
          parseCsv(old, csv->torn_);
      if (records.empty() && !old.empty())
        return makeError(csv->partial_ + ": not a sift-run results file "
                                         "(no complete header line)");
      for (size_t i = 0; i < records.size(); ++i) {
        const std::vector<std::string> &f = records[i];
        std::string where = csv->partial_ + ":" + std::to_string(i + 1);
        if (i == 0) {
          std::string header;
          for (size_t k = 0; k < f.size(); ++k)
            header += (k ? "," : "") + f[k];
          if (header != kHeader)
            return makeError(where + ": not a sift-run results file (its "
                                     "header is '" + header + "')");
          continue;
        }
        if (f.size() != 9)
          return makeError(where + ": " + std::to_string(f.size()) +
                           " fields where a row has 9");
        if (f[3] != device)
          return makeError(where + ": a row of device " + f[3] +
                           "; this run is on " + device +
                           " (resume with the same --device)");
        Row row;
        row.name = f[0];
        row.pipeline = f[1];
        row.target = f[2];
        row.verdict = f[4];
        if (!parseTimeField(f[5], row.kernelMs) ||
            !parseTimeField(f[6], row.loadMs))
          return makeError(where + ": kernel_ms and module_load_ms must be "
                                   "numbers (or empty: not measured), got '" +
                           f[5] + "' and '" + f[6] + "'");
        row.file = f[7];
        row.detail = unescapeField(f[8]);
        row.unreadable = row.verdict == "unreadable";
        text += rowText(row, device);
        csv->kept_.push_back(std::move(row));
      }
    }
  }
  // The header and kept rows replace the old file in one rename, so a run
  // stopped right now still has them; then rows are appended.
  std::string fresh = csv->partial_ + ".tmp";
  std::FILE *out = std::fopen(fresh.c_str(), "wb");
  if (!out)
    return makeError(fresh + ": cannot write: " + std::strerror(errno));
  bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  written = std::fclose(out) == 0 && written;
  if (!written || std::rename(fresh.c_str(), csv->partial_.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(fresh.c_str());
    return makeError(csv->partial_ + ": cannot write: " + why);
  }
  csv->file_ = std::fopen(csv->partial_.c_str(), "ab");
  if (!csv->file_)
    return makeError(csv->partial_ + ": cannot append: " +
                     std::strerror(errno));
  return csv;
}

Status ResultsCsv::append(const Row &row) {
  std::string text = rowText(row, device_);
  if (!file_ ||
      std::fwrite(text.data(), 1, text.size(), file_) != text.size() ||
      std::fflush(file_) != 0)
    return makeError(partial_ + ": write failed: " + std::strerror(errno));
  ++appended_;
  return Status::success();
}

bool ResultsCsv::abandon() {
  if (file_)
    std::fclose(file_);
  file_ = nullptr;
  if (appended_ > 0 || !kept_.empty())
    return false;
  std::remove(partial_.c_str());
  return true;
}

Status ResultsCsv::finish() {
  if (!file_)
    return makeError(partial_ + ": already closed");
  int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0)
    return makeError(partial_ + ": write failed: " + std::strerror(errno));
  if (std::rename(partial_.c_str(), path_.c_str()) != 0)
    return makeError(path_ + ": cannot rename " + partial_ +
                     " into place: " + std::strerror(errno));
  return Status::success();
}
