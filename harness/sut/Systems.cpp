//===- harness/sut/Systems.cpp - The systems a command may test -----------===//

#include "harness/sut/Systems.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace sift::harness {

namespace fs = std::filesystem;

std::string shippedSystemsDir() {
  if (const char *dir = std::getenv("SIFT_SYSTEMS_DIR"); dir && *dir)
    return dir;
#ifdef SIFT_SOURCE_DIR
  return (fs::path(SIFT_SOURCE_DIR) / "systems").string();
#else
  return "systems";
#endif
}

std::vector<std::string> shippedSystemFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(shippedSystemsDir(), ec))
    if (entry.path().extension() == ".toml")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Result<SystemUnderTest *> Systems::of(PipelineKind pipeline,
                                      const std::string &filePipeline) {
  switch (systemOf(pipeline)) {
  case SystemKind::Sift: return static_cast<SystemUnderTest *>(&sift_);
  case SystemKind::Iree: break;
  case SystemKind::File: {
    Result<const SystemFile *> file = fileWithPipeline(filePipeline);
    if (!file.ok())
      return file.error();
    if (!*file)
      return makeError("no system file has a pipeline named '" +
                       filePipeline + "' (harness list systems shows them)");
    std::unique_ptr<FileSystem> &system = fileSystems_[(*file)->name];
    if (!system) {
      Result<std::unique_ptr<FileSystem>> made = makeFileSystem(**file);
      if (!made.ok())
        return made.error();
      system = std::move(*made);
    }
    return static_cast<SystemUnderTest *>(system.get());
  }
  }
  if (!iree_) {
    Result<IreeToolchain> iree = findIree();
    if (!iree.ok())
      return iree.error();
    iree_ = std::make_unique<IreeCompiler>(std::move(*iree));
  }
  return static_cast<SystemUnderTest *>(iree_.get());
}

Result<SystemUnderTest *> Systems::forCase(const CaseOptions &options) {
  if (options.pipeline == PipelineKind::File && !options.systemFile.empty())
    if (Status added = addFile(options.systemFile); !added.ok())
      return makeError("the case's system file: " + added.message());
  return of(options.pipeline, options.filePipeline);
}

Result<std::string> Systems::chipFor(PipelineKind pipeline, TargetKind target,
                                     const std::string &chip) {
  if (systemOf(pipeline) != SystemKind::Iree)
    return chip;
  Result<SystemUnderTest *> system = of(pipeline);
  if (!system.ok())
    return system.error();
  return ireeChipFor(iree_->toolchain(), target, chip);
}

Status Systems::addFile(const std::string &path) {
  Result<SystemFile> file = loadSystemFile(path);
  if (!file.ok())
    return file.error();
  for (const auto &known : files_)
    if (known->name == file->name) {
      if (fs::equivalent(known->path, path))
        return Status::success();
      return makeError(path + ": a system named '" + file->name +
                       "' is already loaded from " + known->path);
    }
  files_.push_back(std::make_unique<SystemFile>(std::move(*file)));
  return Status::success();
}

void Systems::loadShipped() {
  if (shippedLoaded_)
    return;
  shippedLoaded_ = true;
  for (const std::string &path : shippedSystemFiles()) {
    Result<SystemFile> file = loadSystemFile(path);
    if (!file.ok()) {
      shippedErrors_.push_back(file.message());
      continue;
    }
    // A file given with --system of the same name wins.
    bool given = false;
    for (const auto &known : files_)
      given |= known->name == file->name;
    if (!given)
      files_.push_back(std::make_unique<SystemFile>(std::move(*file)));
  }
}

Result<const SystemFile *>
Systems::fileWithPipeline(const std::string &fullName) {
  for (const auto &file : files_)
    if (file->pipeline(fullName))
      return file.get();
  loadShipped();
  for (const auto &file : files_)
    if (file->pipeline(fullName))
      return file.get();
  if (!shippedErrors_.empty())
    return makeError(shippedErrors_.front());
  return static_cast<const SystemFile *>(nullptr);
}

double Systems::caseTimeoutFor(const CaseOptions &options, double limit) {
  if (options.pipeline != PipelineKind::File)
    return limit;
  Result<const SystemFile *> file = fileWithPipeline(options.filePipeline);
  if (!file.ok() || !*file)
    return limit;
  const SystemFile &f = **file;
  return std::max(limit,
                  (f.compile ? f.compileSeconds : 0) + f.runSeconds + 30);
}

Result<const SystemFile *> Systems::fileNamed(const std::string &name) {
  loadShipped();
  for (const auto &file : files_)
    if (file->name == name)
      return file.get();
  if (!shippedErrors_.empty())
    return makeError(shippedErrors_.front());
  return static_cast<const SystemFile *>(nullptr);
}

std::vector<const SystemFile *>
Systems::allFiles(std::vector<std::string> &errors) {
  loadShipped();
  errors = shippedErrors_;
  std::vector<const SystemFile *> all;
  for (const auto &file : files_)
    all.push_back(file.get());
  return all;
}

} // namespace sift::harness
