// Quoting of strings that go into a server's configuration, one helper per
// syntax. Every string lockcheck writes into a config (paths under the run
// directory, addresses, passwords) goes through the helper of that config's
// syntax, so a space, a quote or a newline in it can neither break the file
// nor add a directive of its own.
//
// MariaDB and etcd get their settings as command-line arguments, one argv
// entry each, never through a shell or a config file: those need no quoting.
// SQL sent to MariaDB quotes its string literals with mysql_quote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockcheck {

/// `text` as one argument of a redis.conf / sentinel.conf directive: in
/// double quotes, with `\` and `"` backslash-escaped and every byte outside
/// printable ASCII written as \xHH (Redis's sdssplitargs rules), so
/// `"dir " + redis_config_quote(path)` is one line and one argument whatever
/// `path` holds.
std::string redis_config_quote(std::string_view text);

/// `text` as the value of a `key=value` line of zoo.cfg, which ZooKeeper
/// reads as java.util.Properties (ISO-8859-1 with backslash escapes):
/// `\`, `=`, `:`, `#` and `!` backslash-escaped, line breaks and tabs as
/// \n \r \t \f, other control characters and every non-ASCII character as
/// \uXXXX (UTF-16, decoded from UTF-8). Throws std::invalid_argument when
/// `text` is not UTF-8, or starts or ends with whitespace (ZooKeeper trims
/// values, so such a value cannot reach it intact).
std::string zookeeper_config_value(std::string_view text);

/// `text` as a quoted SQL string literal ('...'), backslash-escaped (the
/// servers run with the default sql_mode, without NO_BACKSLASH_ESCAPES).
std::string mysql_quote(std::string_view text);

/// `path` as a file: URL (RFC 8089), every byte outside [A-Za-z0-9/._~-]
/// percent-encoded, e.g. for a JVM property that takes a URL
/// (-Dlog4j.configuration). `path` must be absolute: the first word of a
/// relative one would read as the URL's host.
std::string file_url(std::string_view path);

/// `text` as one word of a POSIX shell command line: in single quotes, each
/// `'` written as '\'' (for commands run on a remote host over ssh).
std::string shell_quote(std::string_view text);
/// `argv` as one POSIX shell command line: every word shell_quote'd, separated by spaces.
std::string shell_command_line(const std::vector<std::string>& argv);

}  // namespace lockcheck
