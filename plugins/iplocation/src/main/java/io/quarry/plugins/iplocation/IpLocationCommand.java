package io.quarry.plugins.iplocation;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splunk's {@code iplocation [prefix=<string>] [allfields=<bool>] [lang=<string>]
 * [database=<file.mmdb>] [field=]<ip-field>}: where each row's IP address is, as Splunk's fields
 * {@code City}, {@code Country}, {@code Region}, {@code lat}, {@code lon} and, with {@code
 * allfields=true}, {@code Continent}, {@code MetroCode}, {@code Timezone}, each with {@code prefix}
 * in front. The IP field is Splunk's positional argument ({@code iplocation clientip}), also
 * accepted as {@code field=} (default {@code clientip}). Without a database only {@code Country}
 * comes, from the bundled table (IPv4, per /16 network); with a MaxMind-format database every field
 * it has, and IPv6. {@code lang=} picks the names' language ({@link PlaceNames}). Values that are
 * not IP addresses, and addresses with no known location, get no fields.
 */
public final class IpLocationCommand implements CommandDefinition {
  /** The fields of a database lookup, in Splunk's order, without {@code allfields}. */
  static final List<String> FIELDS = List.of("City", "Country", "Region", "lat", "lon");

  /** The fields of a database lookup with {@code allfields=true}, in Splunk's order. */
  static final List<String> ALL_FIELDS =
      List.of("City", "Continent", "Country", "MetroCode", "Region", "Timezone", "lat", "lon");

  @Override
  public String name() {
    return "iplocation";
  }

  @Override
  public String description() {
    return "Splunk's iplocation: the Country of an IP address from a bundled table; City, Country,"
        + " Region, lat and lon (allfields=true: also Continent, MetroCode, Timezone) from a"
        + " MaxMind-format database (database=<file.mmdb>).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("prefix", ArgumentType.STRING, "", "prefix of the new fields"),
        ArgumentSpec.optional(
            "allfields",
            ArgumentType.BOOLEAN,
            "false",
            "also Continent, MetroCode and Timezone (from a database that has them)"),
        ArgumentSpec.optional(
            "lang",
            ArgumentType.STRING,
            "en",
            "language of the names, most preferred first (lang=de,en); lang=code: ISO codes"),
        ArgumentSpec.optional(
            "database",
            ArgumentType.STRING,
            null,
            "a MaxMind DB file (GeoLite2/GeoIP2 City or Country, or compatible); default: the"
                + " bundled per-/16 country table"),
        ArgumentSpec.optional("field", ArgumentType.FIELD, "clientip", "the IP address field")
            .alsoPositional());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    PlaceNames names = PlaceNames.parse(arguments.getString("lang"));
    MaxMindLookup database =
        arguments.has("database") ? MaxMindLookup.open(arguments.getString("database")) : null;
    if (database == null) {
      CountryTable.get(); // a broken jar fails when the query is parsed, not per row
    }
    List<String> outputs =
        database == null
            ? List.of("Country")
            : arguments.getBoolean("allfields") ? ALL_FIELDS : FIELDS;
    return new Bound(
        arguments.getString("field"), arguments.getString("prefix"), outputs, names, database);
  }

  /** An IPv4 address in dotted form as an int, or -1L when the text is not one. */
  static long ipv4(String text) {
    int length = text.length();
    if (length < 7 || length > 15) {
      return -1;
    }
    long address = 0;
    int part = 0;
    int digits = 0;
    int parts = 0;
    for (int i = 0; i <= length; i++) {
      char c = i < length ? text.charAt(i) : '.';
      if (c >= '0' && c <= '9') {
        part = part * 10 + (c - '0');
        if (++digits > 3 || part > 255) {
          return -1;
        }
      } else if (c == '.' && digits > 0) {
        address = (address << 8) | part;
        parts++;
        part = 0;
        digits = 0;
      } else {
        return -1;
      }
    }
    return parts == 4 ? address : -1;
  }

  /**
   * @param outputs the fields to add, unprefixed, from {@link #ALL_FIELDS}
   */
  private record Bound(
      String field, String prefix, List<String> outputs, PlaceNames names, MaxMindLookup database)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      for (String output : outputs) {
        produced.add(prefix + output);
      }
      return produced;
    }

    Location locate(String text) {
      long v4 = ipv4(text);
      if (database == null) {
        return v4 < 0
            ? Location.UNKNOWN
            : Location.countryCode(CountryTable.get().country((int) v4));
      }
      InetAddress address;
      try {
        if (v4 >= 0) {
          address =
              InetAddress.getByAddress(
                  new byte[] {
                    (byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4
                  });
        } else if (text.indexOf(':') >= 0 && text.chars().allMatch(Bound::ipv6Char)) {
          address = InetAddress.getByName(text); // a literal: never a DNS lookup
        } else {
          return Location.UNKNOWN;
        }
      } catch (UnknownHostException e) {
        return Location.UNKNOWN;
      }
      return database.lookup(address, names);
    }

    private static boolean ipv6Char(int c) {
      return (c >= '0' && c <= '9')
          || (c >= 'a' && c <= 'f')
          || (c >= 'A' && c <= 'F')
          || c == ':'
          || c == '.';
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      // country names by code, per operator (one driver's thread): the JDK's lookup is not free
      Map<String, String> countries = new HashMap<>();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block addresses = input.block(field);
          if (addresses == null) {
            return input;
          }
          int positions = input.positionCount();
          BlockFactory factory = context.blockFactory();
          Location[] locations = new Location[positions];
          for (int p = 0; p < positions; p++) {
            Object value = addresses.getObject(p);
            locations[p] = value == null ? Location.UNKNOWN : locate(value.toString().trim());
          }
          Page output = input;
          for (String name : outputs) {
            output = factory.withColumn(output, prefix + name, column(name, locations, factory));
          }
          return output;
        }

        private Block column(String name, Location[] locations, BlockFactory factory) {
          int positions = locations.length;
          return switch (name) {
            case "lat", "lon" -> {
              DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(positions);
              for (Location location : locations) {
                builder.appendNullable(name.equals("lat") ? location.lat() : location.lon());
              }
              yield builder.build();
            }
            case "MetroCode" -> {
              LongBlock.Builder builder = factory.newLongBlockBuilder(positions);
              for (Location location : locations) {
                builder.appendNullable(location.metroCode());
              }
              yield builder.build();
            }
            default -> {
              BytesBlock.Builder builder = factory.newBytesBlockBuilder(positions);
              for (Location location : locations) {
                builder.appendNullable(text(name, location));
              }
              yield builder.build();
            }
          };
        }

        private String text(String name, Location location) {
          return switch (name) {
            case "City" -> location.city();
            case "Continent" -> location.continent();
            case "Country" ->
                location.country() != null || location.countryCode() == null
                    ? location.country()
                    : countries.computeIfAbsent(location.countryCode(), names::country);
            case "Region" -> location.region();
            case "Timezone" -> location.timezone();
            default -> throw new IllegalStateException("not a text field: " + name);
          };
        }
      };
    }
  }
}
