import type { MetaFunction } from "@remix-run/node";
import { Box, Flex, Heading, Text } from "@radix-ui/themes";

export const meta: MetaFunction = () => [{ title: "Exchange Rates · Galaxy Toolbox" }];

export default function ExchangeRatesRoute() {
  return (
    <Box>
      <Flex justify="between" align="center" mb="4">
        <Heading as="h1" size="6">
          Exchange Rates
        </Heading>
      </Flex>
      <Text color="gray">No exchange rates yet.</Text>
    </Box>
  );
}
