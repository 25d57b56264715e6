//===- TextTest.cpp - Line-protocol fields ---------------------------------===//
//
// A field escaped for a one-line record holds no tab or line break, splits
// as one field, and unescapes to the text it was given, backslashes and
// all; oneLine flattens instead.
//
//===----------------------------------------------------------------------===//

#include "support/Text.h"

#include <gtest/gtest.h>

using namespace sift;

TEST(Text, EscapedFieldsRoundTrip) {
  for (std::string text :
       {std::string(""), std::string("plain"),
        std::string("first line\nsecond\tcolumn\r\n"),
        std::string("C:\\path\\n is not a line break\\"), std::string("\\\\t")}) {
    std::string field = escapeField(text);
    EXPECT_EQ(field.find_first_of("\t\n\r"), std::string::npos) << field;
    std::vector<std::string> fields = splitFields("a\t" + field + "\tb");
    ASSERT_EQ(fields.size(), 3u);
    EXPECT_EQ(unescapeField(fields[1]), text);
  }
  EXPECT_EQ(oneLine("a\tb\nc"), "a b c");
  EXPECT_EQ(unescapeField("trailing\\"), "trailing\\");
}
