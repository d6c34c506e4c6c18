// A centred title and description for a list with nothing to show (product-spec section 8).
import { Stack, Text } from '@chakra-ui/react';

export function EmptyState({ title, description }: { title: string; description: string }) {
  return (
    <Stack align="center" textAlign="center" py="16" gap="2" data-testid="empty-state">
      <Text fontWeight="semibold" fontSize="lg">
        {title}
      </Text>
      <Text color="gray.700">{description}</Text>
    </Stack>
  );
}
