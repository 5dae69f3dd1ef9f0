function __atl-reconstruct_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-reconstruct_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-reconstruct_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-reconstruct_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-reconstruct_parse_tokens -S
    set -l unparsed_tokens (__atl-reconstruct_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-reconstruct'
        __atl-reconstruct_parse_subcommand -r 1 'o/out=' 'overwrite' 'feature-sensitivity=' 'sample-ordering=' 'masks=' 'refine-intrinsics=' 'auto-mask' 'garment=' 'max-image-side=' 'detail=' 'max-triangles=' 'texture-size=' 'height=' 'no-object-masking' 'memory-limit=' 'checkpoint=' 'line-buffered' 'progress=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-reconstruct_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-reconstruct_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-reconstruct_parse_subcommand -S -a positional_count
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

function __atl-reconstruct_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-reconstruct_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-reconstruct_tokens -p)
    if test -z "$(__atl-reconstruct_tokens -t)"
        set -l index (count (__atl-reconstruct_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-reconstruct' -f
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_positional "atl-reconstruct" -ge 1' -fa '(set -l exts \'jpg\' \'jpeg\' \'png\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" o out' -s 'o' -l 'out' -d 'Write the model to this directory\'s sparse/ (created).' -rfa '(__atl-reconstruct_complete_directories)'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" overwrite' -l 'overwrite' -d 'Replace an existing DIR/sparse.'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" feature-sensitivity' -l 'feature-sensitivity' -d 'normal, or high to find more features on plain, low-texture fabric (slower).' -rfka 'normal high'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" sample-ordering' -l 'sample-ordering' -d 'unordered (match every pair up to 60 photos), or sequential (photos taken in order round the garment).' -rfka 'unordered sequential'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" masks' -l 'masks' -d 'Directory of masks, white where the garment is: photo.jpg.png, photo.png or photo.jpg.' -rfa '(__atl-reconstruct_complete_directories)'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" refine-intrinsics' -l 'refine-intrinsics' -d 'Intrinsics that bundle adjustment refines, comma-separated: focal, principal-point, k1, k2, or none.' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" auto-mask' -l 'auto-mask' -d 'Keep features off a plain backdrop: find the garment\'s silhouette in each photo that has no --masks mask (a photo without a plain backdrop is used whole).'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" garment' -l 'garment' -d 'Name this garment in the model record, so that \'atl-import\' attaches the model to it.' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" max-image-side' -l 'max-image-side' -d 'Work on photos reduced to at most this many pixels on the longer side.' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" detail' -l 'detail' -d 'sparse (cameras and points only), preview (<25k triangles, 1K texture), reduced (<50k, 2K), medium (<100k, 4K), full (<250k, 8K) or raw (unsimplified, 8K).' -rfka 'sparse preview reduced medium full raw'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" max-triangles' -l 'max-triangles' -d 'A custom triangle budget instead of the detail level\'s.' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" texture-size' -l 'texture-size' -d 'A custom texture side in pixels instead of the detail level\'s (256–8192).' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" height' -l 'height' -d 'The garment\'s real height in metres, to give the model its real size (photos alone cannot).' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" no-object-masking' -l 'no-object-masking' -d 'Reconstruct the whole scene: do not keep depth to the garment\'s silhouette in photos with a plain backdrop.'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" memory-limit' -l 'memory-limit' -d 'The most memory to plan for, such as 3G or 800M (default: what the machine has available); photos are worked on smaller, and the texture made smaller, when the detail level would need more.' -rfka ''
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" checkpoint' -l 'checkpoint' -d 'Save each finished stage here; the same command run again after an interruption resumes after the last one.' -rfa '(__atl-reconstruct_complete_directories)'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" progress' -l 'progress' -d 'Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.' -rfka 'auto bar json none'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" version' -l 'version' -d 'Show the version.'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_positional "atl-reconstruct" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-reconstruct' -n '__atl-reconstruct_should_offer_completions_for_flags_or_options "atl-reconstruct help" version' -l 'version' -d 'Show the version.'
