function __atl-query_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-query_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-query_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-query_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-query_parse_tokens -S
    set -l unparsed_tokens (__atl-query_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-query'
        __atl-query_parse_subcommand -r 2 'where=+' 'sort=+' 'limit=' 'fields=' 'expand' 'available' 'by=' 'not-worn-days=' 'since=' 'until=' 'compare' 'threshold=' 'verify-within=' 'hash-only' 'capacity-kg=' 'date=' 'season=' 'temperature=' 'occasion=' 'style=' 'count=' 'lock=+' 'seed=' 'days=' 'db=' 'line-buffered' 'progress=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-query_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-query_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-query_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __atl-query_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-query_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-query_tokens -p)
    if test -z "$(__atl-query_tokens -t)"
        set -l index (count (__atl-query_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-query' -f
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_positional "atl-query" -eq 1' -fka 'garments outfits wear laundry images models stats duplicates laundry-plan suggest -'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_positional "atl-query" -ge 2' -fa '(set -l exts \'ndjson\' \'jsonl\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query"' -l 'where' -d 'A condition records must meet, like \'category=top\' (repeatable).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query"' -l 'sort' -d 'Sort by a field, \'-field\' for descending (repeatable).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" limit' -l 'limit' -d 'Print at most this many records.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" fields' -l 'fields' -d 'Keep only these fields (comma-separated, dotted paths allowed); \'type\' is always kept. In the views of stored records (garments, outfits, wear, laundry, images, models), a name their records do not have is reported on stderr.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" expand' -l 'expand' -d 'For outfits: inline each garment\'s record in place of its id.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" available' -l 'available' -d 'For outfits: only those whose garments are all at home and clean (available, not ready to wash).'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" by' -l 'by' -d 'For stats: what to group garments by.' -rfka 'category subcategory brand season style color state fabric garment month weekday'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" not-worn-days' -l 'not-worn-days' -d 'For stats: a garment not worn for this many days counts as unworn.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" since' -l 'since' -d 'For stats: count the wears of the last N days (30d, 12w, 6m, 1y) or since a day (2026-11-01, today-30d), from the wear log.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" until' -l 'until' -d 'For stats with --since: the last day counted (default today).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" compare' -l 'compare' -d 'For stats with --since: set each group beside the window of the same length just before.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" threshold' -l 'threshold' -d 'For duplicates: the most pHash bits two photos may differ in when their files are not read (--hash-only, or a photo that cannot be read) (default 8).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" verify-within' -l 'verify-within' -d 'For duplicates: photos within this many pHash bits are compared by their local features, which also finds crops, re-framings and small turns (default 18).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" hash-only' -l 'hash-only' -d 'For duplicates: judge by the pHash alone (--threshold), without reading the photos.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" capacity-kg' -l 'capacity-kg' -d 'For laundry-plan: the washing machine\'s capacity in kilograms of dry laundry.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" date' -l 'date' -d 'For laundry-plan, readyToWash and outfits --available: the day to judge on, YYYY-MM-DD or today+1d (default today).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" season' -l 'season' -d 'For suggest: the season to dress for (default: the season of --date, northern hemisphere).' -rfka 'spring summer autumn winter'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" temperature' -l 'temperature' -d 'For suggest: the temperature in °C; below 10 adds outerwear and a warm layer, above 25 leaves out anything heavy.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" occasion' -l 'occasion' -d 'For suggest: what the outfit is for: casual, work, formal, party, sport (sets the formality).' -rfka 'casual work formal party sport'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" style' -l 'style' -d 'For suggest: only garments of this style (or of none).' -rfka 'casual formal sporty elegant business'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" count' -l 'count' -d 'For suggest: how many different outfits (default 1).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query"' -l 'lock' -d 'For suggest: a garment every outfit keeps (repeatable, or ids separated by commas); the rest is filled around it.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" seed' -l 'seed' -d 'For suggest: another seed chooses otherwise among near-equal outfits (default 0: the same catalog and day give the same outfits).' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" days' -l 'days' -d 'For suggest: plan a trip of N days from --date: N outfits from as few garments as possible, then a packing record.' -rfka ''
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" db' -l 'db' -d 'The catalog file (default: $ATELIER_DB, else $XDG_DATA_HOME/atelier/catalog.sqlite).' -rfa '(set -l exts \'sqlite\' \'db\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" progress' -l 'progress' -d 'Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.' -rfka 'auto bar json none'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" version' -l 'version' -d 'Show the version.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_positional "atl-query" -eq 3' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-query' -n '__atl-query_should_offer_completions_for_flags_or_options "atl-query help" version' -l 'version' -d 'Show the version.'
