function __atl-import_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-import_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-import_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-import_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-import_parse_tokens -S
    set -l unparsed_tokens (__atl-import_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-import'
        __atl-import_parse_subcommand -r 1 'db=' 'format=' 'type=' 'sample' 'images' 'garment=' 'max-pixels=' 'restore=' 'dry-run' 'skip-invalid' 'force' 'line-buffered' 'progress=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-import_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-import_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-import_parse_subcommand -S -a positional_count
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

function __atl-import_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-import_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-import_tokens -p)
    if test -z "$(__atl-import_tokens -t)"
        set -l index (count (__atl-import_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-import' -f
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_positional "atl-import" -ge 1' -fa '(set -l exts \'ndjson\' \'jsonl\' \'json\' \'csv\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" db' -l 'db' -d 'The catalog file (default: $ATELIER_DB, else $XDG_DATA_HOME/atelier/catalog.sqlite).' -rfa '(set -l exts \'sqlite\' \'db\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" format' -l 'format' -d 'Input format: ndjson or csv (default: csv for *.csv files, else ndjson).' -rfka 'ndjson csv'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" type' -l 'type' -d 'Record type of CSV rows that have no \'type\' column.' -rfka ''
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" sample' -l 'sample' -d 'Import the sample wardrobe: 44 garments, 10 outfits and three months of wear log.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" images' -l 'images' -d 'The files are photos (JPEG or PNG) or directories of them: store each once and print an image record per photo.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" garment' -l 'garment' -d 'With --images: attach the photos to this garment.' -rfka ''
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" max-pixels' -l 'max-pixels' -d 'With --images: refuse photos of more pixels than this (a bound on memory).' -rfka ''
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" restore' -l 'restore' -d 'Replace the whole catalog with a backup archive made by \'atl-export --format backup\'.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'atelier\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" dry-run' -l 'dry-run' -d 'Check and print what would be stored, but store nothing.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" skip-invalid' -l 'skip-invalid' -d 'Store the good records, report each bad one on stderr, and go on.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" force' -l 'force' -d 'Store laundry loads that break a care label, with the broken rule among their warnings.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" progress' -l 'progress' -d 'Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.' -rfka 'auto bar json none'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" version' -l 'version' -d 'Show the version.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_positional "atl-import" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-import' -n '__atl-import_should_offer_completions_for_flags_or_options "atl-import help" version' -l 'version' -d 'Show the version.'
