// The fields of the advanced search: description (1024 limit, the input takes 1026 so the
// message can show), top-k (digits only, 1..999 on blur), method and, for scene search from a
// video, the scope.
import { Box, chakra, Flex, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { FIELD_BOX } from '../../../components/control-look';
import {
  SEARCH_INPUT_MAX_LENGTH,
  SEARCH_METHODS,
  SEARCH_SCOPES,
  SEARCH_TEXT_MAX_LENGTH,
  type SearchMethod,
  type SearchScope,
} from '../../../config/limits';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { coerceTopK } from '../../../lib/search-query';

const Label = chakra('label', {
  base: { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1.5' },
});
// Not the upload form's TextArea/TextInput/Select: these keep the page's text colour and size,
// show a read-only description greyed, and the text area is taller.
const TextArea = chakra('textarea', {
  base: { ...FIELD_BOX, py: '2', minH: '8rem', _readOnly: { bg: 'gray.100' } },
});
const Input = chakra('input', { base: { ...FIELD_BOX, h: '10' } });
const Select = chakra('select', { base: { ...FIELD_BOX, h: '10', appearance: 'auto' } });

export const METHOD_LABELS: Record<SearchMethod, MessageId> = {
  hybrid: 'search.method.hybrid',
  dense: 'search.method.dense',
  sparse: 'search.method.sparse',
};
export const SCOPE_LABELS: Record<SearchScope, MessageId> = {
  all: 'search.scope.all',
  current: 'search.scope.current',
};

interface SearchFieldsProps {
  text: string;
  readOnly: boolean;
  onText: (text: string) => void;
  topK: string;
  onTopK: (value: string) => void;
  method: SearchMethod;
  onMethod: (method: SearchMethod) => void;
  /** Null hides the scope choice. */
  scope: SearchScope | null;
  onScope: (scope: SearchScope) => void;
}

export function SearchFields(props: SearchFieldsProps) {
  const t = useT();
  const id = useId();
  const tooLong = props.text.length > SEARCH_TEXT_MAX_LENGTH;
  return (
    <Stack gap="4">
      <div>
        <Label htmlFor={`${id}-text`}>{t('search.description')}</Label>
        <TextArea
          id={`${id}-text`}
          value={props.text}
          readOnly={props.readOnly}
          maxLength={SEARCH_INPUT_MAX_LENGTH}
          placeholder={props.readOnly ? undefined : t('search.descriptionPlaceholder')}
          aria-invalid={tooLong ? true : undefined}
          aria-describedby={tooLong ? `${id}-error` : undefined}
          onChange={(event) => props.onText(event.currentTarget.value)}
        />
        {tooLong ? (
          <Text id={`${id}-error`} role="alert" fontSize="sm" mt="1.5" color="red.700">
            {t('validation.searchTooLong')}
          </Text>
        ) : null}
      </div>
      <Flex gap="4" wrap="wrap">
        <Box flex="1" minW="8rem">
          <Label htmlFor={`${id}-k`}>{t('search.topK')}</Label>
          <Input
            id={`${id}-k`}
            inputMode="numeric"
            value={props.topK}
            onChange={(event) => props.onTopK(event.currentTarget.value.replace(/\D/g, ''))}
            onBlur={() => props.onTopK(String(coerceTopK(props.topK)))}
          />
        </Box>
        <Box flex="2" minW="12rem">
          <Label htmlFor={`${id}-method`}>{t('search.methodLabel')}</Label>
          <Select
            id={`${id}-method`}
            value={props.method}
            onChange={(event) => props.onMethod(event.currentTarget.value as SearchMethod)}
          >
            {SEARCH_METHODS.map((method) => (
              <option key={method} value={method}>
                {t(METHOD_LABELS[method])}
              </option>
            ))}
          </Select>
        </Box>
      </Flex>
      {props.scope !== null ? (
        <fieldset>
          <Text as="legend" fontWeight="medium" fontSize="sm" mb="1.5">
            {t('search.scopeLabel')}
          </Text>
          <Flex gap="4">
            {SEARCH_SCOPES.map((scope) => (
              <Flex as="label" key={scope} gap="2" align="center" cursor="pointer">
                <input
                  type="radio"
                  name={`${id}-scope`}
                  value={scope}
                  checked={props.scope === scope}
                  onChange={() => props.onScope(scope)}
                />
                {t(SCOPE_LABELS[scope])}
              </Flex>
            ))}
          </Flex>
        </fieldset>
      ) : null}
    </Stack>
  );
}
