package io.quarry.server.rest;

import java.util.List;
import java.util.Map;

/**
 * Splunk's XML: Atom feeds and entries whose {@code content} is an {@code s:dict} (namespace {@code
 * http://dev.splunk.com/ns/rest}), and bare {@code <response>} documents — what Splunk's SDKs parse
 * when no {@code output_mode} is given. Maps become {@code s:dict}, lists {@code s:list}, booleans
 * {@code 1}/{@code 0}, everything else escaped text.
 */
final class SplunkAtom {
  static final String CONTENT_TYPE = "text/xml; charset=UTF-8";
  private static final String NAMESPACES =
      " xmlns=\"http://www.w3.org/2005/Atom\" xmlns:s=\"http://dev.splunk.com/ns/rest\""
          + " xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\"";

  private SplunkAtom() {}

  /** One entry. */
  record Entry(String title, String id, String published, String author, Map<String, ?> content) {}

  /** {@code <response><key>value</key>…</response>}. */
  static String response(Map<String, ?> fields) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<response>");
    fields.forEach(
        (name, value) -> {
          xml.append('<').append(name).append('>');
          if (value instanceof List<?> list) {
            for (Object item : list) {
              xml.append(item);
            }
          } else {
            xml.append(escape(String.valueOf(value)));
          }
          xml.append("</").append(name).append('>');
        });
    return xml.append("</response>\n").toString();
  }

  /** {@code <response><messages><msg type="…">…</msg></messages></response>}. */
  static String messages(String type, String text) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<response><messages><msg type=\""
        + escape(type)
        + "\">"
        + escape(text)
        + "</msg></messages></response>\n";
  }

  /** An entry as the root element (how Splunk answers for one search job). */
  static String entryDocument(Entry entry) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    entry(xml, entry, NAMESPACES);
    return xml.toString();
  }

  /** A feed of entries. */
  static String feed(String title, String id, List<Entry> entries) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<feed").append(NAMESPACES).append(">\n");
    xml.append("  <title>").append(escape(title)).append("</title>\n");
    xml.append("  <id>").append(escape(id)).append("</id>\n");
    xml.append("  <opensearch:totalResults>")
        .append(entries.size())
        .append("</opensearch:totalResults>\n");
    xml.append("  <opensearch:itemsPerPage>0</opensearch:itemsPerPage>\n");
    xml.append("  <opensearch:startIndex>0</opensearch:startIndex>\n");
    for (Entry entry : entries) {
      entry(xml, entry, "");
    }
    return xml.append("</feed>\n").toString();
  }

  private static void entry(StringBuilder xml, Entry entry, String namespaces) {
    xml.append("<entry").append(namespaces).append(">\n");
    xml.append("  <title>").append(escape(entry.title())).append("</title>\n");
    xml.append("  <id>").append(escape(entry.id())).append("</id>\n");
    xml.append("  <updated>").append(escape(entry.published())).append("</updated>\n");
    xml.append("  <link href=\"").append(escape(entry.id())).append("\" rel=\"alternate\"/>\n");
    xml.append("  <published>").append(escape(entry.published())).append("</published>\n");
    xml.append("  <author><name>").append(escape(entry.author())).append("</name></author>\n");
    xml.append("  <content type=\"text/xml\">");
    value(xml, entry.content());
    xml.append("</content>\n</entry>\n");
  }

  private static void value(StringBuilder xml, Object value) {
    if (value instanceof Map<?, ?> map) {
      xml.append("<s:dict>");
      map.forEach(
          (key, item) -> {
            xml.append("<s:key name=\"").append(escape(String.valueOf(key))).append("\">");
            value(xml, item);
            xml.append("</s:key>");
          });
      xml.append("</s:dict>");
    } else if (value instanceof List<?> list) {
      xml.append("<s:list>");
      for (Object item : list) {
        xml.append("<s:item>");
        value(xml, item);
        xml.append("</s:item>");
      }
      xml.append("</s:list>");
    } else if (value instanceof Boolean bool) {
      xml.append(bool ? "1" : "0");
    } else if (value != null) {
      xml.append(escape(String.valueOf(value)));
    }
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            out.append(' '); // not allowed in XML 1.0
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
