package io.quarry.ql.exec;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Splunk's {@code spath} location paths over XML: the first step names the root element, each
 * further step a child element, {@code {n}} picks the n-th of the elements a step matches under one
 * parent (counting from 1, as XML paths do; negative from the end), {@code {}} every one, and a
 * final {@code {@name}} an attribute ({@code book.title{@lang}}). An element with child elements
 * gives its inner XML, one without gives its text; every value is text. Without a path every
 * element's text and every attribute becomes a field named by its path ({@code a.b}, {@code
 * a.b{@id}}), repeated elements a multivalue. DOCTYPEs and external entities are refused.
 */
public final class XmlPaths {
  private static final ThreadLocal<DocumentBuilder> BUILDER =
      ThreadLocal.withInitial(XmlPaths::builder);

  /** Fails on fatal errors without printing them (the default handler writes to stderr). */
  private static final org.xml.sax.ErrorHandler SILENT = new org.xml.sax.helpers.DefaultHandler();

  /** Writes an element back as XML text (inner XML of an element with children). */
  private static final ThreadLocal<Transformer> WRITER =
      ThreadLocal.withInitial(
          () -> {
            try {
              TransformerFactory factory = TransformerFactory.newInstance();
              factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
              return factory.newTransformer();
            } catch (javax.xml.transform.TransformerConfigurationException e) {
              throw new IllegalStateException("no XML writer", e);
            }
          });

  private XmlPaths() {}

  private static DocumentBuilder builder() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(SILENT);
      return builder;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("no XML parser", e);
    }
  }

  /** The root element of the XML document in {@code text}, or null when it is not XML. */
  public static Element read(String text) {
    String trimmed = text.strip();
    if (trimmed.length() < 4 || trimmed.charAt(0) != '<') {
      return null;
    }
    try {
      DocumentBuilder builder = BUILDER.get();
      builder.reset();
      builder.setErrorHandler(SILENT);
      return builder.parse(new InputSource(new StringReader(trimmed))).getDocumentElement();
    } catch (SAXException | java.io.IOException notXml) {
      return null;
    }
  }

  /** The values at the path (several: a multivalue; none: no match). */
  public static List<Object> extract(Element root, List<JsonPaths.Step> steps) {
    List<Element> elements = new ArrayList<>();
    JsonPaths.Step first = steps.get(0);
    if (!first.name().isEmpty() && !first.name().equals(root.getNodeName())) {
      return List.of();
    }
    select(List.of(root), first.indexes(), elements);
    for (JsonPaths.Step step : steps.subList(1, steps.size())) {
      List<Element> next = new ArrayList<>();
      for (Element parent : elements) {
        select(children(parent, step.name()), step.indexes(), next);
      }
      elements = next;
      if (elements.isEmpty()) {
        return List.of();
      }
    }
    String attribute = steps.get(steps.size() - 1).attribute();
    List<Object> values = new ArrayList<>(elements.size());
    for (Element element : elements) {
      if (attribute != null) {
        if (element.hasAttribute(attribute)) {
          values.add(element.getAttribute(attribute));
        }
      } else {
        values.add(value(element));
      }
    }
    return values;
  }

  /** The elements among {@code matched} that the index selectors pick (the first only counts). */
  private static void select(List<Element> matched, List<Integer> indexes, List<Element> into) {
    if (indexes.isEmpty() || indexes.get(0) == JsonPaths.ALL) {
      into.addAll(matched);
      return;
    }
    int index = indexes.get(0);
    int position = index < 0 ? matched.size() + index : index - 1;
    if (position >= 0 && position < matched.size()) {
      into.add(matched.get(position));
    }
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> children = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element child
          && (name.isEmpty() || child.getNodeName().equals(name))) {
        children.add(child);
      }
    }
    return children;
  }

  private static boolean hasChildElements(Element element) {
    NodeList nodes = element.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
        return true;
      }
    }
    return false;
  }

  /** An element's text, or with child elements its inner XML. */
  private static String value(Element element) {
    if (!hasChildElements(element)) {
      return element.getTextContent();
    }
    StringBuilder inner = new StringBuilder();
    NodeList nodes = element.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      inner.append(serialize(nodes.item(i)));
    }
    return inner.toString().strip();
  }

  private static String serialize(Node node) {
    if (node.getNodeType() == Node.TEXT_NODE) {
      return node.getTextContent();
    }
    try {
      Transformer transformer = WRITER.get();
      transformer.reset();
      transformer.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
      StringWriter out = new StringWriter();
      transformer.transform(new DOMSource(node), new StreamResult(out));
      return out.toString();
    } catch (TransformerException e) {
      return node.getTextContent();
    }
  }

  /**
   * Every element's text (elements without child elements, and not blank) and every attribute under
   * its path, values in document order; a path met several times is a multivalue.
   */
  public static void flatten(Element root, Map<String, List<Object>> into) {
    flatten(root.getNodeName(), root, into);
  }

  private static void flatten(String path, Element element, Map<String, List<Object>> into) {
    NamedNodeMap attributes = element.getAttributes();
    for (int i = 0; i < attributes.getLength(); i++) {
      Attr attribute = (Attr) attributes.item(i);
      if (attribute.getName().startsWith("xmlns")) {
        continue; // namespace declarations are not data
      }
      into.computeIfAbsent(path + "{@" + attribute.getName() + "}", k -> new ArrayList<>())
          .add(attribute.getValue());
    }
    if (!hasChildElements(element)) {
      String text = element.getTextContent();
      if (!text.isBlank()) {
        into.computeIfAbsent(path, k -> new ArrayList<>()).add(text);
      }
      return;
    }
    for (Element child : children(element, "")) {
      flatten(path + "." + child.getNodeName(), child, into);
    }
  }
}
