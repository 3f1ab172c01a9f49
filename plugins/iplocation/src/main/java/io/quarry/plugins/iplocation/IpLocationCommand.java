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
import io.quarry.plugin.api.data.Page;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code iplocation [field=clientip] [prefix=] [database=<file.mmdb>]}: where each row's IP address
 * is. Without a database, {@code <prefix>country} from the bundled table (IPv4 only, per /16
 * network); with a MaxMind-format database, also {@code region}, {@code city}, {@code lat}, {@code
 * lon} when it has them, and IPv6. Values that are not IP addresses get no fields.
 */
public final class IpLocationCommand implements CommandDefinition {
  @Override
  public String name() {
    return "iplocation";
  }

  @Override
  public String description() {
    return "Country of an IP address from a bundled table; country, region, city, lat and lon from a"
        + " MaxMind-format database (database=<file.mmdb>).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("field", ArgumentType.FIELD, "clientip", "the IP address field"),
        ArgumentSpec.optional("prefix", ArgumentType.STRING, "", "prefix of the new fields"),
        ArgumentSpec.optional(
            "database",
            ArgumentType.STRING,
            null,
            "a MaxMind DB file (GeoLite2/GeoIP2 City or Country, or compatible); default: the"
                + " bundled per-/16 country table"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    MaxMindLookup database =
        arguments.has("database") ? MaxMindLookup.open(arguments.getString("database")) : null;
    if (database == null) {
      CountryTable.get(); // a broken jar fails when the query is parsed, not per row
    }
    return new Bound(arguments.getString("field"), arguments.getString("prefix"), database);
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

  private record Bound(String field, String prefix, MaxMindLookup database)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      produced.add(prefix + "country");
      if (database != null) {
        for (String part : List.of("region", "city", "lat", "lon")) {
          produced.add(prefix + part);
        }
      }
      return produced;
    }

    Location locate(String text) {
      long v4 = ipv4(text);
      if (database == null) {
        return v4 < 0 ? Location.UNKNOWN : Location.country(CountryTable.get().country((int) v4));
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
      return database.lookup(address);
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
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block addresses = input.block(field);
          if (addresses == null) {
            return input;
          }
          int positions = input.positionCount();
          BlockFactory factory = context.blockFactory();
          BytesBlock.Builder country = factory.newBytesBlockBuilder(positions);
          if (database == null) {
            for (int p = 0; p < positions; p++) {
              Object value = addresses.getObject(p);
              country.appendNullable(
                  value == null ? null : locate(value.toString().trim()).country());
            }
            return factory.withColumn(input, prefix + "country", country.build());
          }
          BytesBlock.Builder region = factory.newBytesBlockBuilder(positions);
          BytesBlock.Builder city = factory.newBytesBlockBuilder(positions);
          DoubleBlock.Builder lat = factory.newDoubleBlockBuilder(positions);
          DoubleBlock.Builder lon = factory.newDoubleBlockBuilder(positions);
          for (int p = 0; p < positions; p++) {
            Object value = addresses.getObject(p);
            Location location = value == null ? Location.UNKNOWN : locate(value.toString().trim());
            country.appendNullable(location.country());
            region.appendNullable(location.region());
            city.appendNullable(location.city());
            lat.appendNullable(location.lat());
            lon.appendNullable(location.lon());
          }
          Page output = factory.withColumn(input, prefix + "country", country.build());
          output = factory.withColumn(output, prefix + "region", region.build());
          output = factory.withColumn(output, prefix + "city", city.build());
          output = factory.withColumn(output, prefix + "lat", lat.build());
          output = factory.withColumn(output, prefix + "lon", lon.build());
          return output;
        }
      };
    }
  }
}
