#pragma once

/// @file
/// Line-oriented reading with file/line errors (`retarget::internal`): `LineReader` over text
/// held in memory or a stream read in blocks, and opening files with errors that name them.
/// The one line reader of every text reader (BVH, CSV, Kinect, NTU, skeleton schemas).

#include <cstddef>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/text.hpp>

namespace retarget {
namespace internal {

/// Reads text line by line with a 1-based line counter, from a `std::string_view` (not copied;
/// it must outlive the reader) or from a stream read in 1 MiB blocks (the text is never held
/// whole). Lines end at LF; a trailing CR (CRLF files) and a UTF-8 byte-order mark on the first
/// line are dropped. `line()` is a view valid until the next call to next(). `fail()` throws
/// ParseError at the current line.
class LineReader {
 public:
  LineReader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}
  LineReader(std::istream& in, std::string file) : stream_(&in), file_(std::move(file)), buffer_(kBlockSize) {}

  /// Advances to the next line; false at the end of the input.
  RETARGET_DECL bool next();
  /// Advances to the next line that is not empty or blank; false at the end of the input.
  RETARGET_DECL bool nextNonEmpty();
  /// The current line, without its line ending.
  std::string_view line() const { return line_; }
  /// 1-based number of the current line (0 before the first call to next()).
  std::size_t lineNumber() const { return line_number_; }
  /// Name of the file being read.
  const std::string& file() const { return file_; }
  /// Throws ParseError(file, current line, what).
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, line_number_, what); }

  /// Bytes of input after the current line when known: the rest of an in-memory text, or the
  /// hint given by setRemainingBytesHint for a stream (0 when none was given).
  std::size_t remainingBytesHint() const { return stream_ == nullptr ? text_.size() - pos_ : remaining_hint_; }
  /// Tells a stream reader how many bytes the input holds (e.g. the file size), for reserving.
  void setRemainingBytesHint(std::size_t bytes) { remaining_hint_ = bytes; }

 private:
  // Bytes read from a stream at a time (the buffer doubles for a longer line). The fuzz targets
  // define a tiny block (fuzz/CMakeLists.txt): faster per input, and the refill and growth paths
  // run on every input.
#ifdef RETARGET_LINE_READER_BLOCK_SIZE
  static constexpr std::size_t kBlockSize = RETARGET_LINE_READER_BLOCK_SIZE;
#else
  static constexpr std::size_t kBlockSize = std::size_t(1) << 20;
#endif

  RETARGET_DECL bool nextInText();

  RETARGET_DECL bool nextInStream();

  // Keeps the unfinished line, moves it to the front, doubles the buffer when one line fills it.
  RETARGET_DECL void refill();

  std::string_view text_;
  std::size_t pos_ = 0;
  std::istream* stream_ = nullptr;
  std::string file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::string_view line_;
  std::size_t line_number_ = 0;
  std::size_t remaining_hint_ = 0;
};

/// The first line of `in` that is not blank (empty at the end of input), with its 1-based number
/// in `line_number`; then rewinds `in` to its start (for readers that pick a layout from it).
RETARGET_DECL std::string peekFirstNonBlankLine(std::istream& in, std::size_t& line_number);

/// Opens `path` for reading; throws ParseError(path, 0, "cannot open ...") when it cannot.
/// `what` names the kind of file in the message ("the file", "the schema file").
RETARGET_DECL std::ifstream openForReading(const std::string& path, const char* what = "the file");

/// Opens `path` for writing; throws Error naming the path when it cannot.
RETARGET_DECL std::ofstream openForWriting(const std::string& path);

/// Flushes `out` and throws Error naming `path` when the stream failed.
RETARGET_DECL void finishWriting(std::ostream& out, const std::string& path);

}  // namespace internal

#if RETARGET_DEFINE_CORE

namespace internal {

RETARGET_DECL std::string peekFirstNonBlankLine(std::istream& in, std::size_t& line_number) {
  LineReader reader(in, {});
  std::string line = reader.nextNonEmpty() ? std::string(reader.line()) : std::string();
  line_number = reader.lineNumber();
  in.clear();
  in.seekg(0);
  return line;
}

RETARGET_DECL std::ifstream openForReading(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, std::string("cannot open ") + what + " for reading");
  return in;
}

RETARGET_DECL std::ofstream openForWriting(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("[retarget] cannot open '" + path + "' for writing");
  return out;
}

RETARGET_DECL void finishWriting(std::ostream& out, const std::string& path) {
  out.flush();
  if (!out) throw Error("[retarget] failed writing '" + path + "'");
}

RETARGET_DECL bool LineReader::next() {
  if (!(stream_ == nullptr ? nextInText() : nextInStream())) {
    line_ = {};
    return false;
  }
  ++line_number_;
  if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
  if (line_number_ == 1 && line_.substr(0, 3) == "\xEF\xBB\xBF") line_.remove_prefix(3);
  return true;
}

RETARGET_DECL bool LineReader::nextNonEmpty() {
  while (next()) {
    if (!isBlankLine(line_)) return true;
  }
  return false;
}

RETARGET_DECL bool LineReader::nextInText() {
  if (pos_ >= text_.size()) return false;
  const char* begin = text_.data() + pos_;
  const void* newline = std::memchr(begin, '\n', text_.size() - pos_);
  const std::size_t length =
      newline != nullptr ? static_cast<std::size_t>(static_cast<const char*>(newline) - begin) : text_.size() - pos_;
  pos_ += length + (newline != nullptr ? 1 : 0);
  line_ = std::string_view(begin, length);
  return true;
}

RETARGET_DECL bool LineReader::nextInStream() {
  for (;;) {
    const char* begin = buffer_.data() + begin_;
    if (const void* newline = std::memchr(begin, '\n', end_ - begin_)) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - begin);
      begin_ += length + 1;
      line_ = std::string_view(begin, length);
      return true;
    }
    if (eof_) {
      if (begin_ >= end_) return false;
      line_ = std::string_view(begin, end_ - begin_);
      begin_ = end_;
      return true;
    }
    refill();
  }
}

RETARGET_DECL void LineReader::refill() {
  const std::size_t kept = end_ - begin_;
  if (begin_ > 0 && kept > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, kept);
  begin_ = 0;
  end_ = kept;
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  const auto got = stream_->rdbuf()->sgetn(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
  if (got <= 0) {
    eof_ = true;
  } else {
    end_ += static_cast<std::size_t>(got);
  }
}

}  // namespace internal

#endif  // RETARGET_DEFINE_CORE

}  // namespace retarget
