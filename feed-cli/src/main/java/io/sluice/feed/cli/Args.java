package io.sluice.feed.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parsed {@code --name}, {@code --name value} and {@code --name=value} arguments. Flags take no value; options take one;
 * multi-options may repeat, and also take every following argument that does not start with {@code --}.
 */
final class Args {

    private final Map<String, List<String>> values;
    private final Set<String> off; // flags given as --name=false

    private Args(Map<String, List<String>> values, Set<String> off) {
        this.values = values;
        this.off = off;
    }

    static Args parse(String[] args, Set<String> flags, Set<String> options, Set<String> multiOptions) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        Set<String> off = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if ( ! arg.startsWith("--") || arg.length() == 2)
                throw new UsageException("Unexpected argument '" + arg + "'; options start with --");
            String name = arg.substring(2);
            String inline = null;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                inline = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            List<String> list = values.computeIfAbsent(name, __ -> new ArrayList<>());
            if (flags.contains(name)) {
                // --flag=true and --flag=false, as the Vespa CLI's boolean flags take them
                if (inline != null && ! inline.equals("true") && ! inline.equals("false"))
                    throw new UsageException("Option '--" + name + "' takes no value or true|false, but got '" + inline + "'");
                if ("false".equals(inline)) {
                    values.remove(name);
                    off.add(name);
                }
                else off.remove(name);
            }
            else if (options.contains(name) || multiOptions.contains(name)) {
                if (inline != null) list.add(inline);
                else if (i + 1 < args.length && ! args[i + 1].startsWith("--")) list.add(args[++i]);
                else throw new UsageException("Option '--" + name + "' needs a value");
                if (options.contains(name) && list.size() > 1) throw new UsageException("Option '--" + name + "' given more than once");
                while (multiOptions.contains(name) && i + 1 < args.length && ! args[i + 1].startsWith("--")) list.add(args[++i]);
            }
            else throw new UsageException("Unknown option '--" + name + "'; see --help");
        }
        return new Args(values, off);
    }

    /** Whether option {@code name} was given; for a flag, whether it is on (given, and not as {@code --name=false}). */
    boolean has(String name) { return values.containsKey(name); }

    /** Whether {@code name} was given at all, a flag as {@code --name=false} included. */
    boolean given(String name) { return values.containsKey(name) || off.contains(name); }

    Optional<String> value(String name) {
        List<String> list = values.get(name);
        return list == null || list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
    }

    List<String> values(String name) { return values.getOrDefault(name, List.of()); }

    int intValue(String name, int defaultValue, int min, int max) {
        Optional<String> value = value(name);
        if (value.isEmpty()) return defaultValue;
        try {
            int parsed = Integer.parseInt(value.get().trim());
            if (parsed < min || parsed > max)
                throw new UsageException("Option '--" + name + "' must be in [" + min + ", " + max + "], but was " + parsed);
            return parsed;
        }
        catch (NumberFormatException e) {
            throw new UsageException("Option '--" + name + "' needs an integer, but got '" + value.get() + "'");
        }
    }

    Optional<Double> doubleValue(String name, double min) {
        Optional<String> value = value(name);
        if (value.isEmpty()) return Optional.empty();
        try {
            double parsed = Double.parseDouble(value.get().trim());
            if ( ! (parsed >= min) || Double.isInfinite(parsed))
                throw new UsageException("Option '--" + name + "' must be at least " + min + ", but was " + value.get());
            return Optional.of(parsed);
        }
        catch (NumberFormatException e) {
            throw new UsageException("Option '--" + name + "' needs a number, but got '" + value.get() + "'");
        }
    }

}
