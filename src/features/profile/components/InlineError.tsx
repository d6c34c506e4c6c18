// A failure shown in red under a form (the e-mail change shows its errors inline: section 8).
import { Text } from '@chakra-ui/react';

export function InlineError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Text role="alert" color="red.700" fontSize="sm" whiteSpace="pre-line">
      {text}
    </Text>
  );
}
